import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  NativeSelect,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { api, type paths, unwrap } from '../api/client.js';
import { type MessageKey, useI18n } from '../i18n/index.js';
import { dateTime } from '../ui/format.js';
import { Empty, ErrorState, QueryView } from '../ui/states.js';

type ComplaintBody = paths['/api/complaints']['post']['requestBody']['content']['application/json'];
const CATEGORIES: ComplaintBody['category'][] = ['transaction', 'service', 'fees', 'privacy', 'technical', 'other'];

/** File a complaint (answered within 15 business days) and follow the earlier ones. */
export default function Complaints() {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: ['complaints'],
    queryFn: async () => unwrap(await api.GET('/api/complaints', { params: { query: { limit: '50' } } })).data,
  });
  const form = useForm<ComplaintBody>({ defaultValues: { category: 'transaction', subject: '', description: '' } });
  const file = useMutation({
    mutationFn: async (v: ComplaintBody) => unwrap(await api.POST('/api/complaints', { body: v })),
    onSuccess: () => {
      form.reset();
      queryClient.invalidateQueries({ queryKey: ['complaints'] });
    },
  });
  const { errors } = form.formState;
  return (
    <Stack gap="lg" maw={640}>
      <Title order={1} size="h2">
        {t('nav.complaints')}
      </Title>
      <Text size="sm">{t('complaints.note')}</Text>
      <form onSubmit={form.handleSubmit((v) => file.mutate(v))} noValidate>
        <Stack gap="sm">
          <NativeSelect
            label={t('complaints.category')}
            data={CATEGORIES.map((c) => ({ value: c, label: t(`complaintCategory.${c}` as MessageKey) }))}
            {...form.register('category')}
          />
          <TextInput
            label={t('complaints.subject')}
            required
            error={errors.subject?.message}
            {...form.register('subject', { required: t('recipients.required'), maxLength: 200 })}
          />
          <Textarea
            label={t('complaints.description')}
            required
            autosize
            minRows={4}
            error={errors.description?.message}
            {...form.register('description', { required: t('recipients.required'), maxLength: 5000 })}
          />
          {file.error ? <ErrorState error={file.error} /> : null}
          {file.isSuccess ? (
            <Alert color="teal" role="status">
              {t('complaints.filed')}
            </Alert>
          ) : null}
          <Button type="submit" loading={file.isPending}>
            {t('complaints.submit')}
          </Button>
        </Stack>
      </form>
      <section aria-labelledby="earlier">
        <Title order={2} size="h4" id="earlier" mb="xs">
          {t('complaints.earlier')}
        </Title>
        <QueryView query={list}>
          {(items) =>
            items.length === 0 ? (
              <Empty>{t('complaints.none')}</Empty>
            ) : (
              <Stack gap="xs">
                {items.map((c) => (
                  <Card withBorder padding="sm" key={c.id}>
                    <Group justify="space-between">
                      <Text fw={600}>{c.subject}</Text>
                      <Badge color="gray.8">{c.status}</Badge>
                    </Group>
                    <Text size="xs" c="dimmed">
                      {t(`complaintCategory.${c.category}` as MessageKey)} · {dateTime(c.created_at, locale)}
                    </Text>
                    {c.resolution ? <Text size="sm">{c.resolution}</Text> : null}
                  </Card>
                ))}
              </Stack>
            )
          }
        </QueryView>
      </section>
    </Stack>
  );
}
