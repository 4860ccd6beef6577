import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

/**
 * Starts the live client (live-notifications.ts) for a signed-in user and stops it on sign-out
 * or when another user signs in. Its code is a chunk of its own, fetched only then: a visitor's
 * first download does not carry it.
 */
export function useLiveNotifications(userId: string | null): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!userId) return;
    let stop: (() => void) | null = null;
    let ended = false;
    void import('./live-notifications').then(
      ({ startLiveNotifications }) => {
        if (!ended) stop = startLiveNotifications(queryClient);
      },
      (error: unknown) => console.warn('The live notifications could not be loaded:', error),
    );
    return () => {
      ended = true;
      stop?.();
    };
  }, [userId, queryClient]);
}
