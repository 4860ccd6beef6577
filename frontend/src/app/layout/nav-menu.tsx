import {
  cloneElement,
  type ComponentType,
  type KeyboardEvent,
  type ReactElement,
  type Ref,
  useEffect,
  useRef,
  useState,
} from 'react';
import { deferredImport } from '../../lib/deferred-import';
import type { NavDropdownProps } from './nav-dropdown';

// Ant Design's Dropdown and Menu are a large part of the shell's code and no first paint needs
// them: they arrive when someone starts using the page (or the browser is idle after loading).
const navDropdown = deferredImport(() => import('./nav-dropdown'));
let loaded: ComponentType<NavDropdownProps> | null = null;
void navDropdown.ready.then((module) => {
  loaded = module.default;
});

interface TriggerProps {
  onClick?: () => void;
  onPointerDown?: () => void;
  onPointerUp?: () => void;
  onPointerCancel?: () => void;
  onKeyDown?: (event: KeyboardEvent) => void;
  onKeyUp?: () => void;
  ref?: Ref<HTMLElement>;
}

type NavMenuProps = Omit<NavDropdownProps, 'open' | 'onOpenChange' | 'children' | 'placeholderHadFocus'> & {
  /** The button that opens the menu. */
  children: ReactElement<TriggerProps>;
};

/**
 * A click-to-open menu of the navigation bars. Until its code has arrived the button is already
 * there; a click on it opens the menu as soon as the code is in, and focus stays on it.
 */
export function NavMenu({ children, ...menu }: NavMenuProps) {
  const [Dropdown, setDropdown] = useState(() => loaded);
  const [open, setOpen] = useState(false);
  const placeholderHadFocus = useRef(false);
  // The code can arrive between a press and its release: swapping the button then would lose the
  // click (it ends on another element), so the swap waits for the release.
  const pressed = useRef(false);
  const arrived = useRef<ComponentType<NavDropdownProps> | null>(null);

  useEffect(() => {
    if (Dropdown) return;
    let live = true;
    void navDropdown.ready.then((module) => {
      if (!live) return;
      arrived.current = module.default;
      if (!pressed.current) setDropdown(() => module.default);
    });
    return () => {
      live = false;
    };
  }, [Dropdown]);

  if (!Dropdown) {
    const press = () => {
      pressed.current = true;
    };
    // The click comes right after the release, in the same task: swap after it.
    const release = () =>
      window.setTimeout(() => {
        pressed.current = false;
        const module = arrived.current;
        if (module) setDropdown(() => module);
      }, 0);
    return cloneElement(children, {
      onClick: () => {
        setOpen(true);
        void navDropdown.load();
      },
      onPointerDown: press,
      onPointerUp: release,
      onPointerCancel: release,
      // Enter and Space press the button; other keys (Tab away) do not.
      onKeyDown: (event: KeyboardEvent) => {
        if (event.key === 'Enter' || event.key === ' ') press();
      },
      onKeyUp: release,
      // Runs as the button is swapped for the menu's own, while it is still in the page.
      ref: (element: HTMLElement | null) => () => {
        placeholderHadFocus.current = element !== null && document.activeElement === element;
      },
    });
  }
  return (
    <Dropdown {...menu} open={open} onOpenChange={setOpen} placeholderHadFocus={placeholderHadFocus}>
      {children}
    </Dropdown>
  );
}
