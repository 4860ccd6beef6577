import { Typography } from 'antd';
import { type ReactNode, useId } from 'react';
import { Card } from '../../components/surface-card';
import { ChangeEmailForm } from '../../features/account/components/change-email-form';
import { ChangePasswordForm } from '../../features/account/components/change-password-form';
import { DeleteAccount } from '../../features/account/components/delete-account';
import { DownloadData } from '../../features/account/components/download-data';
import '../../features/account/components/settings.css';
import { RelationList } from '../../features/blocks/components/relation-list';
import { NotificationSettingsPanel } from '../../features/notifications/components/notification-settings-panel';
import { useDocumentTitle } from '../../lib/use-document-title';

const PAGE = { maxWidth: 800, margin: '0 auto' } as const;

/** One section of the page: a card headed by its title, named by it for screen readers. */
function Section({ title, danger, children }: { title: string; danger?: boolean; children: ReactNode }) {
  const id = useId();
  return (
    <Card className={danger ? 'settings-section is-danger' : 'settings-section'}>
      <section aria-labelledby={id}>
        <Typography.Title level={2} id={id} className="settings-title">
          {title}
        </Typography.Title>
        {children}
      </section>
    </Card>
  );
}

/**
 * /settings — the signed-in user's account (issue 20, docs/decisions/049-accounts-people-control.md):
 * password, email, the notification switches (the same panel as the profile's Settings tab), the
 * data export, the blocked and muted users (048), and deleting the account.
 */
export default function SettingsPage() {
  useDocumentTitle('Settings');
  return (
    <div className="settings-page" style={PAGE}>
      <h1 className="settings-heading">Settings</h1>
      <Section title="Change password">
        <ChangePasswordForm />
      </Section>
      <Section title="Change email">
        <ChangeEmailForm />
      </Section>
      <Card className="settings-section">
        <NotificationSettingsPanel />
      </Card>
      <Section title="Download my data">
        <DownloadData />
      </Section>
      <Section title="Blocked users">
        <Typography.Paragraph type="secondary">
          They cannot follow you, comment on or reply to your writing, like your posts or mention you.
        </Typography.Paragraph>
        <RelationList kind="blocks" />
      </Section>
      <Section title="Muted users">
        <Typography.Paragraph type="secondary">
          Their posts and notices are left out of your feeds and search, and their comments are folded away.
        </Typography.Paragraph>
        <RelationList kind="mutes" />
      </Section>
      <Section title="Delete account" danger>
        <DeleteAccount />
      </Section>
    </div>
  );
}
