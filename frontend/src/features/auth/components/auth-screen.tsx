import { HomeOutlined } from '@ant-design/icons';
import { Typography } from 'antd';
import { Card } from '../../../components/surface-card';
import { ButtonLink } from '../../../components/button-link';
import { MAIN_ID } from '../../../components/skip-link';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import './auth-screen.css';

interface AuthScreenProps {
  title: string;
  switchPrompt: string;
  switchLabel: string;
  switchTo: string;
  children: ReactNode;
}

/** The frame both auth forms share: welcome line, title, the form, a switch link, and Home. */
export function AuthScreen({ title, switchPrompt, switchLabel, switchTo, children }: AuthScreenProps) {
  return (
    <main className="auth-screen" id={MAIN_ID} tabIndex={-1}>
      <Card className="auth-card">
        <ButtonLink to={paths.home} icon={<HomeOutlined aria-hidden />}>
          Home
        </ButtonLink>
        <Typography.Paragraph className="auth-welcome" type="secondary">
          Welcome to TechIt, where the community shares what it builds.
        </Typography.Paragraph>
        <Typography.Title level={1} className="auth-title">
          {title}
        </Typography.Title>
        {children}
        <Typography.Paragraph className="auth-switch">
          {switchPrompt} <Link to={switchTo}>{switchLabel}</Link>
        </Typography.Paragraph>
      </Card>
    </main>
  );
}
