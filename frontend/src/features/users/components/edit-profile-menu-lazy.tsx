import { DownOutlined, EditOutlined } from '@ant-design/icons';
import type { Me } from '@techit/contract/api-types';
import { Button } from 'antd';
import { type ComponentType, lazy, Suspense, useState } from 'react';

// Only the profile's owner sees this menu. Its dropdown, dialogs, form library and validation
// rules are most of the profile page's code, so visitors never download them.
let loaded: ComponentType<{ me: Me }> | null = null;
const load = () =>
  import('./edit-profile-menu').then((module) => {
    loaded = module.EditProfileMenu;
    return module.EditProfileMenu;
  });
const LazyMenu = lazy(async () => ({ default: await load() }));

/** Its code, for a page that waits for it (the profile route does, on the viewer's own profile). */
export function preloadEditProfileMenu(): Promise<unknown> {
  return load();
}

/** The own profile's 'Edit Profile' menu; the same button, inactive, until its code has arrived. */
export function EditProfileMenu({ me }: { me: Me }) {
  // Decided once per mount: switching later would replace the button under someone's focus.
  const [Loaded] = useState(() => loaded);
  if (Loaded) return <Loaded me={me} />;
  return (
    <Suspense
      fallback={
        <Button icon={<EditOutlined aria-hidden />} disabled>
          Edit Profile <DownOutlined aria-hidden />
        </Button>
      }
    >
      <LazyMenu me={me} />
    </Suspense>
  );
}
