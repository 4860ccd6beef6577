import {
  DeleteOutlined,
  DownOutlined,
  EditOutlined,
  IdcardOutlined,
  LoadingOutlined,
  PictureOutlined,
} from '@ant-design/icons';
import type { Me } from '@techit/contract/api-types';
import { DEFAULT_PROFILE_PIC, LIMITS } from '@techit/contract/limits';
import { Button, Dropdown, type MenuProps, Typography } from 'antd';
import { type ChangeEvent, useId, useRef, useState } from 'react';
import { notify } from '../../../lib/notify';
import { useUpdateBio } from '../api/update-bio';
import { useRemovePicture, useUpdatePicture } from '../api/update-picture';
import { useUpdatePosition } from '../api/update-position';
import { TextFieldDialog } from './text-field-dialog';

type Dialog = 'bio' | 'position' | null;

/** The own profile's 'Edit Profile' menu: picture (upload or remove), position and bio. */
export function EditProfileMenu({ me }: { me: Me }) {
  const fileId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const newPicture = useUpdatePicture();
  const noPicture = useRemovePicture();
  const bio = useUpdateBio();
  const position = useUpdatePosition();

  // Failures are told by each mutation's errorToast (lib/query-client.ts); a rejected save keeps
  // the text dialog open with the user's text.
  const pickPicture = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file || newPicture.isPending) return;
    void newPicture.mutateAsync(file).then(
      () => notify.success('Updated your picture'),
      () => undefined,
    );
  };

  const removePicture = () =>
    noPicture.mutateAsync().then(
      () => notify.success('Removed your picture'),
      () => undefined,
    );

  const saveWith =
    (mutation: typeof bio, what: 'bio' | 'position') =>
    (value: string): Promise<unknown> =>
      mutation.mutateAsync(value).then(() => notify.success(`Updated your ${what}`));

  const items: MenuProps['items'] = [
    { key: 'picture', icon: <PictureOutlined aria-hidden />, label: 'Update Profile Picture' },
    {
      key: 'remove-picture',
      icon: <DeleteOutlined aria-hidden />,
      label: 'Remove Profile Picture',
      disabled: me.pic === DEFAULT_PROFILE_PIC,
    },
    { key: 'position', icon: <IdcardOutlined aria-hidden />, label: 'Update Position' },
    { key: 'bio', icon: <EditOutlined aria-hidden />, label: 'Update Bio' },
  ];

  const choose: MenuProps['onClick'] = ({ key, domEvent }) => {
    // Chosen with Enter: the menu acts on keydown, so cancel the key's default action, or its
    // keypress would land in the dialog's field (the dialog takes the focus at once) and submit it.
    if (domEvent.type === 'keydown') domEvent.preventDefault();
    if (key === 'picture') fileInput.current?.click();
    else if (key === 'remove-picture') void removePicture();
    else if (key === 'position' || key === 'bio') setDialog(key);
  };

  return (
    <>
      <label htmlFor={fileId} className="visually-hidden">
        New profile picture
      </label>
      <input
        id={fileId}
        ref={fileInput}
        type="file"
        accept="image/jpeg,image/png,image/webp,image/gif,image/avif"
        className="visually-hidden"
        tabIndex={-1}
        onChange={pickPicture}
      />
      <Dropdown menu={{ items, onClick: choose }} trigger={['click']} autoFocus>
        <Button icon={<EditOutlined aria-hidden />}>
          Edit Profile <DownOutlined aria-hidden />
        </Button>
      </Dropdown>
      <Typography.Text type="secondary" role="status" className="profile-status">
        {(newPicture.isPending || noPicture.isPending) && (
          <>
            <LoadingOutlined aria-hidden /> Updating your picture…
          </>
        )}
      </Typography.Text>
      <TextFieldDialog
        open={dialog === 'position'}
        title="Update Position"
        label="Position"
        placeholder="e.g. Backend developer"
        initialValue={me.position}
        max={LIMITS.positionMax}
        onClose={() => setDialog(null)}
        serverField="position"
        onSave={saveWith(position, 'position')}
      />
      <TextFieldDialog
        open={dialog === 'bio'}
        title="Update Bio"
        label="Bio"
        placeholder="A few words about you"
        initialValue={me.bio}
        max={LIMITS.bioMax}
        multiline
        onClose={() => setDialog(null)}
        serverField="bio"
        onSave={saveWith(bio, 'bio')}
      />
    </>
  );
}
