import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client.js';
import { useI18n } from '../i18n/index.js';
import { Empty, ErrorState, QueryView } from '../ui/states.js';

/** Cards (R14): only reachable while FEATURE_CARDS is on (the menu hides it otherwise). */
export default function Cards() {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const cards = useQuery({ queryKey: ['cards'], queryFn: async () => unwrap(await api.GET('/api/cards')).data });
  const issue = useMutation({
    mutationFn: async () => unwrap(await api.POST('/api/cards', { body: { type: 'virtual' } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['cards'] }),
  });
  const freeze = useMutation({
    mutationFn: async (v: { id: string; status: 'active' | 'frozen' }) =>
      unwrap(await api.PATCH('/api/cards/{id}', { params: { path: { id: v.id } }, body: { status: v.status } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['cards'] }),
  });
  return (
    <Stack gap="md" maw={560}>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('nav.cards')}
        </Title>
        <Button onClick={() => issue.mutate()} loading={issue.isPending}>
          {t('cards.issue')}
        </Button>
      </Group>
      {issue.error || freeze.error ? <ErrorState error={issue.error ?? freeze.error} /> : null}
      <QueryView query={cards}>
        {(list) =>
          list.length === 0 ? (
            <Empty>{t('cards.none')}</Empty>
          ) : (
            <Stack gap="xs">
              {list.map((c) => (
                <Card withBorder key={c.id} padding="sm">
                  <Group justify="space-between">
                    <div>
                      <Text ff="monospace">{c.maskedNumber}</Text>
                      <Text size="xs" c="dimmed">
                        {String(c.expiryMonth).padStart(2, '0')}/{c.expiryYear}
                      </Text>
                    </div>
                    <Group gap="xs">
                      <Badge color={c.status === 'active' ? 'teal.9' : 'gray.8'}>{c.status}</Badge>
                      {c.status === 'active' || c.status === 'frozen' ? (
                        <Button
                          size="xs"
                          variant="default"
                          onClick={() =>
                            freeze.mutate({ id: c.id, status: c.status === 'active' ? 'frozen' : 'active' })
                          }
                        >
                          {c.status === 'active' ? t('cards.freeze') : t('cards.unfreeze')}
                        </Button>
                      ) : null}
                    </Group>
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
