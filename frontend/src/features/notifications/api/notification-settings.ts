import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationSettings } from '@techit/contract/api-types';
import { api } from '../../../lib/api-client';
import { notificationsQueryKey } from './notification-cache';
import { notificationPaths } from './notification-paths';

const settingsQueryKey = [...notificationsQueryKey, 'settings'] as const;

export function useNotificationSettings() {
  return useQuery({
    queryKey: settingsQueryKey,
    queryFn: ({ signal }) => api<NotificationSettings>(notificationPaths.settings, { signal }),
    meta: { errorToast: { title: 'Oops, there was an issue fetching your notification settings!' } },
  });
}

/** One switch flipped: shown at once, sent as a partial PUT, the server's answer kept; undone on failure. */
export function useUpdateNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: Partial<NotificationSettings>) =>
      api<NotificationSettings>(notificationPaths.settings, { method: 'PUT', body: change }),
    scope: { id: 'notification-settings' },
    onMutate: (change) => {
      queryClient.setQueryData<NotificationSettings>(settingsQueryKey, (settings) =>
        settings ? { ...settings, ...change } : settings,
      );
    },
    onSuccess: (settings) => queryClient.setQueryData(settingsQueryKey, settings),
    onError: () => void queryClient.invalidateQueries({ queryKey: settingsQueryKey }),
    meta: { errorToast: { title: 'Could not save your notification settings', withReason: () => true } },
  });
}
