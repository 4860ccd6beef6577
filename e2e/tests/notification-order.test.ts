import type { Notification, NotificationsReply } from '@techit/contract/api-types';
import { placeInOrder } from '../../frontend/src/features/notifications/api/notification-order';

/** Where the live client puts a notification the stream sends (frontend/src/features/notifications/api/notification-order.ts). */
describe('placing a live notification in the cached list', () => {
  const item = (id: string, minute: number): Notification => ({
    _id: id.padStart(24, '0'),
    kind: 'follow',
    actors: [],
    actorsCount: 1,
    read: false,
    createdAt: `2026-11-26T10:${String(minute).padStart(2, '0')}:00.000Z`,
  });
  const page = (items: Notification[], nextCursor: string | null = null): NotificationsReply => ({
    notifications: items,
    nextCursor,
    unreadCount: 0,
  });
  const ids = (pages: NotificationsReply[]) => pages.map((p) => p.notifications.map((n) => n._id.replace(/^0+/, '')));

  it('puts a new one first', () => {
    expect(ids(placeInOrder([page([item('b', 20), item('a', 10)])], item('c', 30)))).toEqual([['c', 'b', 'a']]);
  });

  it('moves a changed one (a like group with one more liker) up, once', () => {
    const pages = [page([item('c', 30), item('b', 20)], 'next'), page([item('a', 10)])];
    expect(ids(placeInOrder(pages, item('a', 40)))).toEqual([['a', 'c', 'b'], []]);
  });

  it('puts one that committed late below the newer ones it arrived after', () => {
    const pages = [page([item('c', 30), item('a', 10)])];
    expect(ids(placeInOrder(pages, item('b', 20)))).toEqual([['c', 'b', 'a']]);
  });

  it('orders equal times by id, as the server does', () => {
    expect(ids(placeInOrder([page([item('3', 20), item('1', 20)])], item('2', 20)))).toEqual([['3', '2', '1']]);
  });

  it('leaves one older than every loaded item to the next page, or appends it when there is none', () => {
    expect(ids(placeInOrder([page([item('c', 30)], 'next')], item('a', 10)))).toEqual([['c']]);
    expect(ids(placeInOrder([page([item('c', 30)])], item('a', 10)))).toEqual([['c', 'a']]);
  });
});
