import type { NotificationSettings } from '@techit/contract/api-types';
import { NOTIFICATION_KINDS, type NotificationKind } from '@techit/contract/enums';
import { Skeleton, Switch, Typography } from 'antd';
import { useId } from 'react';
import { useNotificationSettings, useUpdateNotificationSettings } from '../api/notification-settings';
import './notifications.css';

const KINDS: Record<NotificationKind, { label: string; hint: string }> = {
  like: { label: 'Likes', hint: 'Someone likes your post' },
  comment: { label: 'Comments', hint: 'Someone comments on your post' },
  reply: { label: 'Replies', hint: 'Someone replies to your comment' },
  mention: { label: 'Mentions', hint: 'Someone mentions you with @ in a post, comment or notice' },
  follow: { label: 'New followers', hint: 'Someone follows you' },
};

/** One switch per kind (GET/PUT /api/notification-settings): a switched-off kind is not written for you at all. */
export function NotificationSettingsPanel() {
  const settings = useNotificationSettings();
  const update = useUpdateNotificationSettings();
  const id = useId();
  return (
    <section aria-labelledby={`${id}-title`}>
      <Typography.Title level={2} id={`${id}-title`} style={{ fontSize: 20 }}>
        Notifications
      </Typography.Title>
      <Typography.Paragraph type="secondary">Choose what you are notified about.</Typography.Paragraph>
      {settings.data ? (
        <div className="notification-settings">
          {NOTIFICATION_KINDS.map((kind) => (
            <SettingRow
              key={kind}
              id={`${id}-${kind}`}
              kind={kind}
              settings={settings.data}
              onChange={(on) => update.mutate({ [kind]: on })}
            />
          ))}
        </div>
      ) : (
        !settings.isError && <Skeleton active paragraph={{ rows: 4 }} />
      )}
    </section>
  );
}

function SettingRow(props: {
  id: string;
  kind: NotificationKind;
  settings: NotificationSettings;
  onChange: (on: boolean) => void;
}) {
  const { label, hint } = KINDS[props.kind];
  return (
    <div className="notification-setting">
      <div>
        <label htmlFor={props.id}>{label}</label>
        <span className="notification-setting-hint" id={`${props.id}-hint`}>
          {hint}
        </span>
      </div>
      <Switch
        id={props.id}
        aria-describedby={`${props.id}-hint`}
        checked={props.settings[props.kind]}
        onChange={props.onChange}
      />
    </div>
  );
}
