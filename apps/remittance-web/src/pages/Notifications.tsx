import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client.js';
import { useI18n } from '../i18n/index.js';
import { dateTime } from '../ui/format.js';
import { useNotifications } from '../ui/queries.js';
import { Empty, ErrorState, QueryView } from '../ui/states.js';

/** Notifications (R13; their titles and bodies are Norwegian, as the service writes them). */
export default function Notifications() {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const list = useNotifications();
  const mark = useMutation({
    mutationFn: async (ids: string[]) =>
      unwrap(await api.PATCH('/api/notifications', { body: { notificationIds: ids } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['notifications'] }),
  });
  const unread = list.data?.filter((n) => !n.read).map((n) => n.id) ?? [];
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('nav.notifications')}
        </Title>
        <Button onClick={() => mark.mutate(unread)} disabled={!unread.length} loading={mark.isPending}>
          {t('notifications.markAll')}
        </Button>
      </Group>
      {mark.error ? <ErrorState error={mark.error} /> : null}
      <QueryView query={list}>
        {(items) =>
          items.length === 0 ? (
            <Empty>{t('notifications.none')}</Empty>
          ) : (
            <Stack gap="xs">
              {items.map((n) => (
                <Card
                  withBorder
                  padding="sm"
                  key={n.id}
                  style={n.read ? undefined : { borderInlineStart: '4px solid var(--mantine-color-teal-9)' }}
                >
                  <Group justify="space-between" wrap="nowrap" align="flex-start">
                    <div style={{ minWidth: 0 }}>
                      <Text fw={n.read ? 400 : 700} lang="nb">
                        {n.title}
                      </Text>
                      <Text size="sm" lang="nb">
                        {n.body}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {dateTime(n.createdAt, locale)} · {n.read ? t('notifications.read') : t('notifications.unread')}
                      </Text>
                    </div>
                    {!n.read ? (
                      <Button size="xs" variant="default" onClick={() => mark.mutate([n.id])}>
                        {t('notifications.markRead')}
                      </Button>
                    ) : null}
                  </Group>
                </Card>
              ))}
            </Stack>
          )
        }
      </QueryView>
    </Stack>
  );
}
