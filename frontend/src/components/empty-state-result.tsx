import { Result } from 'antd';
import type { ReactNode } from 'react';

/** Loaded lazily by empty-state.tsx: Result carries large status illustrations. */
export default function EmptyStateResult({
  title,
  subtitle,
  extra,
}: {
  title: string;
  subtitle: string;
  extra: ReactNode;
}) {
  return <Result status="info" title={title} subTitle={subtitle} extra={extra} />;
}
