import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Grid,
  Group,
  NativeSelect,
  NumberInput,
  Stack,
  TextInput,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Controller, useFieldArray, useForm } from 'react-hook-form';
import { api, unwrap } from '../../api/client.js';
import type { paths } from '../../api/schema.generated.js';
import { useAuth } from '../../auth.js';
import { useI18n } from '../../i18n/index.js';
import { ErrorState, Loading, useFieldErrors } from '../../ui/states.js';

type Rates = paths['/api/v1/settings/tax-rates']['get']['responses'][200]['content']['application/json'];
type Body = paths['/api/v1/settings/tax-rates']['put']['requestBody']['content']['application/json'];

/** The organization's VAT rates (owners and admins edit; the others read). */
export default function TaxRates() {
  const query = useQuery({
    queryKey: ['tax-rates'],
    queryFn: async () => unwrap(await api.GET('/api/v1/settings/tax-rates')),
  });
  if (query.isPending) return <Loading />;
  if (query.isError) return <ErrorState error={query.error} retry={() => query.refetch()} />;
  return <RatesForm rates={query.data} />;
}

function RatesForm({ rates }: { rates: Rates }) {
  const { t, locale } = useI18n();
  const { isAdmin } = useAuth();
  const queryClient = useQueryClient();
  const form = useForm<Body>({ defaultValues: { defaultVATRate: rates.defaultVATRate, rates: rates.rates } });
  const list = useFieldArray({ control: form.control, name: 'rates' });
  const save = useMutation({
    mutationFn: async (body: Body) => unwrap(await api.PUT('/api/v1/settings/tax-rates', { body })),
    onSuccess: (data) => {
      queryClient.setQueryData(['tax-rates'], data);
      form.reset({ defaultVATRate: data.defaultVATRate, rates: data.rates });
    },
  });
  const errors = useFieldErrors(save.error);
  const numberProps = locale === 'en' ? { decimalSeparator: '.' } : { decimalSeparator: ',' };
  const current = form.watch('rates');
  return (
    <form onSubmit={form.handleSubmit((v) => save.mutate(v))} noValidate>
      <Stack>
        <Card withBorder>
          <Stack gap="sm">
            {list.fields.map((row, i) => (
              <Grid key={row.id} gutter="xs" align="flex-end">
                <Grid.Col span={{ base: 12, sm: 4 }}>
                  <TextInput
                    label={`${t('books.tax.name')} ${i + 1}`}
                    readOnly={!isAdmin}
                    error={errors[`rates[${i}].name`]}
                    {...form.register(`rates.${i}.name`)}
                  />
                </Grid.Col>
                <Grid.Col span={{ base: 4, sm: 2 }}>
                  <Controller
                    control={form.control}
                    name={`rates.${i}.rate`}
                    render={({ field }) => (
                      <NumberInput
                        label={`${t('books.tax.rate')} ${i + 1}`}
                        hideControls
                        min={0}
                        max={100}
                        decimalScale={2}
                        suffix=" %"
                        readOnly={!isAdmin}
                        {...numberProps}
                        value={field.value}
                        error={errors[`rates[${i}].rate`]}
                        onChange={(v) => field.onChange(typeof v === 'number' ? v : 0)}
                      />
                    )}
                  />
                </Grid.Col>
                <Grid.Col span={{ base: isAdmin ? 6 : 8, sm: 5 }}>
                  <TextInput
                    label={`${t('books.tax.description')} ${i + 1}`}
                    readOnly={!isAdmin}
                    {...form.register(`rates.${i}.description`)}
                  />
                </Grid.Col>
                {isAdmin ? (
                  <Grid.Col span={{ base: 2, sm: 1 }}>
                    <ActionIcon
                      variant="subtle"
                      color="red.9"
                      c="red.9"
                      size="lg"
                      aria-label={t('books.tax.remove', { n: i + 1 })}
                      disabled={list.fields.length <= 1}
                      onClick={() => list.remove(i)}
                    >
                      ×
                    </ActionIcon>
                  </Grid.Col>
                ) : null}
              </Grid>
            ))}
            {isAdmin ? (
              <Group>
                <Button variant="default" size="xs" onClick={() => list.append({ name: '', rate: 0, description: '' })}>
                  {t('books.tax.add')}
                </Button>
              </Group>
            ) : null}
            <Controller
              control={form.control}
              name="defaultVATRate"
              render={({ field }) => (
                <NativeSelect
                  label={t('books.tax.default')}
                  disabled={!isAdmin}
                  w={{ base: '100%', sm: 240 }}
                  data={[...new Set(current.map((r) => Number(r.rate)))].map((r) => ({
                    value: String(r),
                    label: `${r} %`,
                  }))}
                  value={String(field.value)}
                  onChange={(e) => field.onChange(Number(e.currentTarget.value))}
                />
              )}
            />
          </Stack>
        </Card>
        {save.isSuccess ? (
          <Alert color="teal" role="status">
            {t('books.saved')}
          </Alert>
        ) : null}
        {save.error ? <ErrorState error={save.error} /> : null}
        {isAdmin ? (
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending}>
              {t('app.save')}
            </Button>
          </Group>
        ) : null}
      </Stack>
    </form>
  );
}
