import { Dropdown, type DropdownProps, type MenuProps } from 'antd';
import { cloneElement, type ReactElement, type Ref, type RefObject, useEffect, useRef } from 'react';

export interface NavDropdownProps {
  items: NonNullable<MenuProps['items']>;
  placement?: DropdownProps['placement'];
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Whether the placeholder button it replaces had focus (known once that button is gone). */
  placeholderHadFocus: RefObject<boolean>;
  children: ReactElement<{ ref?: Ref<HTMLElement> }>;
}

/** Loaded on demand by nav-menu.tsx. */
export default function NavDropdown({
  items,
  placement,
  open,
  onOpenChange,
  placeholderHadFocus,
  children,
}: NavDropdownProps) {
  const trigger = useRef<HTMLElement>(null);
  useEffect(() => {
    // Keyboard users keep their place when the menu's code arrives while they are on its button.
    if (placeholderHadFocus.current) trigger.current?.focus();
  }, [placeholderHadFocus]);
  return (
    <Dropdown trigger={['click']} placement={placement} open={open} onOpenChange={onOpenChange} menu={{ items }}>
      {cloneElement(children, { ref: trigger })}
    </Dropdown>
  );
}
