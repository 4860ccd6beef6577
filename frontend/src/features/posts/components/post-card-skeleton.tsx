import { Skeleton } from 'antd';
import { Card } from '../../../components/surface-card';

/** A placeholder card while a page of posts loads. */
export function PostCardSkeleton() {
  return (
    <Card aria-hidden>
      <Skeleton active avatar title paragraph={{ rows: 3 }} />
    </Card>
  );
}
