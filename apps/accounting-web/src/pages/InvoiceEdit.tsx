import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useFieldArray, useForm, useWatch } from 'react-hook-form';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { api, unwrap } from '../api/client.js';
import type { paths } from '../api/schema.generated.js';
import { useAuth } from '../auth.js';
import { useI18n } from '../i18n/index.js';
import { computeTotals } from '../lib/totals.js';
import { useFormat } from '../ui/format.js';
import { addDays, daysBetween, today } from '../ui/period.js';
import { ErrorState, Loading, useFieldErrors } from '../ui/states.js';
import { ContactSelect } from './ContactSelect.js';
import '@mantine/dates/styles.css';
import { DateField } from '../ui/DateField.js';

type Body = paths['/api/v1/invoices']['post']['requestBody']['content']['application/json'];
type Invoice = paths['/api/v1/invoices/{id}']['get']['responses'][200]['content']['application/json'];

interface Line {
  description: string;
  quantity: number;
  unitPrice: number;
  taxRate: string;
}
interface FormValues {
  customerId: string | null;
  invoiceDate: string;
  dueDate: string;
  currencyCode: string;
  discountAmount: number;
  notes: string;
  items: Line[];
}

function useTaxRates() {
  return useQuery({
    queryKey: ['tax-rates'],
    staleTime: 300_000,
    queryFn: async () => unwrap(await api.GET('/api/v1/settings/tax-rates')),
  });
}

/**
 * /invoices/:id/edit edits a draft; /invoices/new starts a new invoice, from an empty line or, with ?from=<id>, as a
 * copy of another invoice (any status): its customer, currency, discount, notes and lines, dated today with the
 * same number of days to the due date.
 */
export default function InvoiceEdit() {
  const { id } = useParams();
  const [params] = useSearchParams();
  const sourceId = id ? null : params.get('from');
  const shown = id ?? sourceId;
  const invoice = useQuery({
    queryKey: ['invoice', shown],
    enabled: Boolean(shown),
    queryFn: async () => unwrap(await api.GET('/api/v1/invoices/{id}', { params: { path: { id: shown! } } })),
  });
  const rates = useTaxRates();
  if ((shown && invoice.isPending) || rates.isPending) return <Loading />;
  const failed = (shown && invoice.error) || rates.error;
  if (failed) return <ErrorState error={failed} />;
  return (
    <Editor
      // A new copy is a new form: leaving one copy for another resets the fields.
      key={shown ?? 'new'}
      invoice={id ? invoice.data! : null}
      source={sourceId ? invoice.data! : null}
      rates={rates.data!}
    />
  );
}

function Editor({
  invoice,
  source,
  rates,
}: {
  invoice: Invoice | null;
  source: Invoice | null;
  rates: paths['/api/v1/settings/tax-rates']['get']['responses'][200]['content']['application/json'];
}) {
  const { t, locale } = useI18n();
  const f = useFormat();
  const { me } = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  // The user's calendar day, not UTC's: just after midnight in Belgrade UTC still says yesterday.
  const day = today();
  const baseCurrency = me?.organization.baseCurrency ?? 'EUR';
  const from = invoice ?? source;
  const form = useForm<FormValues>({
    defaultValues: from
      ? {
          customerId: from.customerId,
          invoiceDate: invoice ? invoice.invoiceDate : day,
          dueDate: invoice ? invoice.dueDate : addDays(day, daysBetween(from.invoiceDate, from.dueDate)),
          currencyCode: from.currencyCode,
          discountAmount: Number(from.discountAmount),
          notes: from.notes ?? '',
          items: from.items.map((i) => ({
            description: i.description,
            quantity: Number(i.quantity),
            unitPrice: Number(i.unitPrice),
            taxRate: String(Number(i.taxRate)),
          })),
        }
      : {
          customerId: null,
          invoiceDate: day,
          dueDate: addDays(day, 15),
          currencyCode: baseCurrency,
          discountAmount: 0,
          notes: '',
          items: [{ description: '', quantity: 1, unitPrice: 0, taxRate: String(rates.defaultVATRate) }],
        },
  });
  const lines = useFieldArray({ control: form.control, name: 'items' });
  const watched = useWatch({ control: form.control, name: ['items', 'discountAmount', 'currencyCode'] });
  const [items, discount, currency] = watched;
  const totals = computeTotals(
    (items ?? []).map((l) => ({ quantity: l.quantity ?? 0, unitPrice: l.unitPrice ?? 0, taxRate: l.taxRate || '0' })),
    2,
    discount ?? 0,
  );
  const errors = useFieldErrors(error);
  const rateOptions = [
    ...rates.rates.map((r) => ({ value: String(r.rate), label: `${f.number(r.rate, 0)} %` })),
  ].filter((o, i, a) => a.findIndex((x) => x.value === o.value) === i);
  // Under 62em (the width the lines' table needs beside the menu) the line fields are stacked: a table of five inputs does not fit a 375 px screen.
  const narrow = useMediaQuery('(max-width: 62em)', undefined, { getInitialValueInEffect: false });
  const numberProps =
    locale === 'en'
      ? { decimalSeparator: '.', thousandSeparator: ',' }
      : { decimalSeparator: ',', thousandSeparator: '.' };

  const onSubmit = form.handleSubmit(async (values) => {
    setError(null);
    const body: Body = {
      customerId: values.customerId ?? '',
      invoiceDate: values.invoiceDate,
      dueDate: values.dueDate,
      currencyCode: values.currencyCode,
      discountAmount: values.discountAmount || 0,
      notes: values.notes || null,
      items: values.items.map((l) => ({
        description: l.description,
        quantity: l.quantity,
        unitPrice: l.unitPrice,
        taxRate: Number(l.taxRate),
      })),
    };
    try {
      const saved = invoice
        ? unwrap(await api.PUT('/api/v1/invoices/{id}', { params: { path: { id: invoice.id } }, body }))
        : unwrap(await api.POST('/api/v1/invoices', { body }));
      queryClient.invalidateQueries({ queryKey: ['invoices'] });
      queryClient.setQueryData(['invoice', saved.id], saved);
      navigate(`/invoices/${saved.id}`, { replace: Boolean(invoice) });
    } catch (err) {
      setError(err);
    }
  });

  /** The inputs of line i, laid out as a table row on wide screens and stacked on a phone. */
  const cells = (i: number) => ({
    description: (
      <TextInput
        aria-label={`${t('invoices.description')} ${i + 1}`}
        error={errors[`items[${i}].description`]}
        {...form.register(`items.${i}.description`)}
      />
    ),
    quantity: (
      <Controller
        control={form.control}
        name={`items.${i}.quantity`}
        render={({ field }) => (
          <NumberInput
            aria-label={`${t('invoices.quantity')} ${i + 1}`}
            hideControls
            min={0}
            decimalScale={4}
            {...numberProps}
            value={field.value}
            error={errors[`items[${i}].quantity`]}
            onChange={(v) => field.onChange(typeof v === 'number' ? v : 0)}
          />
        )}
      />
    ),
    unitPrice: (
      <Controller
        control={form.control}
        name={`items.${i}.unitPrice`}
        render={({ field }) => (
          <NumberInput
            aria-label={`${t('invoices.unitPrice')} ${i + 1}`}
            hideControls
            decimalScale={4}
            {...numberProps}
            value={field.value}
            error={errors[`items[${i}].unitPrice`]}
            onChange={(v) => field.onChange(typeof v === 'number' ? v : 0)}
          />
        )}
      />
    ),
    taxRate: (
      <Controller
        control={form.control}
        name={`items.${i}.taxRate`}
        render={({ field }) => (
          <Select
            aria-label={`${t('invoices.taxRate')} ${i + 1}`}
            allowDeselect={false}
            data={rateOptions}
            value={field.value}
            error={errors[`items[${i}].taxRate`]}
            onChange={(v) => field.onChange(v ?? '0')}
          />
        )}
      />
    ),
    remove: (
      <ActionIcon
        variant="subtle"
        color="red.9"
        c="red.9"
        aria-label={t('invoices.removeLine', { n: i + 1 })}
        disabled={lines.fields.length === 1}
        onClick={() => lines.remove(i)}
      >
        ×
      </ActionIcon>
    ),
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        <Title order={1} size="h2">
          {invoice ? `${t('invoices.edit')} ${invoice.invoiceNumber}` : t('invoices.new')}
        </Title>
        {source ? (
          <Alert color="blue" role="status" data-testid="invoice-copied-from">
            {t('invoices.copiedFrom', { number: source.invoiceNumber })}
          </Alert>
        ) : null}
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
          <Controller
            control={form.control}
            name="customerId"
            rules={{ required: true }}
            render={({ field, fieldState }) => (
              <ContactSelect
                side="customer"
                label={t('invoices.customer')}
                required
                value={field.value}
                error={errors.customerId ?? (fieldState.error ? t('invoices.customer') : undefined)}
                onChange={(c) => {
                  field.onChange(c?.id ?? null);
                  if (c && !invoice) form.setValue('dueDate', addDays(form.getValues('invoiceDate'), c.paymentTerms));
                }}
              />
            )}
          />
          <Controller
            control={form.control}
            name="invoiceDate"
            render={({ field }) => (
              <DateField
                label={t('invoices.date')}
                required
                value={field.value}
                error={errors.invoiceDate}
                onChange={(v) => field.onChange(v ?? '')}
              />
            )}
          />
          <Controller
            control={form.control}
            name="dueDate"
            render={({ field }) => (
              <DateField
                label={t('invoices.dueDate')}
                required
                value={field.value}
                error={errors.dueDate}
                onChange={(v) => field.onChange(v ?? '')}
              />
            )}
          />
          <Controller
            control={form.control}
            name="currencyCode"
            render={({ field }) => (
              <Select
                label={t('invoices.currency')}
                allowDeselect={false}
                data={[...new Set([baseCurrency, 'EUR', 'RSD', 'BAM', 'USD', 'CHF'])]}
                value={field.value}
                error={errors.currencyCode}
                onChange={(v) => field.onChange(v ?? baseCurrency)}
              />
            )}
          />
        </SimpleGrid>
        <Card withBorder p="xs">
          <Title order={2} size="h4" mb="xs">
            {t('invoices.lines')}
          </Title>
          {narrow ? (
            <Stack gap="sm">
              {lines.fields.map((line, i) => {
                const c = cells(i);
                return (
                  <Card key={line.id} withBorder p="xs" data-testid={`line-card-${i}`}>
                    <Stack gap={6}>
                      <Group justify="space-between" wrap="nowrap">
                        <Text size="sm" fw={700}>
                          {t('books.line')} {i + 1}
                        </Text>
                        {c.remove}
                      </Group>
                      <Text size="xs" c="dimmed" component="div">
                        {t('invoices.description')}
                      </Text>
                      {c.description}
                      <SimpleGrid cols={2} spacing="xs">
                        <Stack gap={2}>
                          <Text size="xs" c="dimmed" component="div">
                            {t('invoices.quantity')}
                          </Text>
                          {c.quantity}
                        </Stack>
                        <Stack gap={2}>
                          <Text size="xs" c="dimmed" component="div">
                            {t('invoices.unitPrice')}
                          </Text>
                          {c.unitPrice}
                        </Stack>
                        <Stack gap={2}>
                          <Text size="xs" c="dimmed" component="div">
                            {t('invoices.taxRate')}
                          </Text>
                          {c.taxRate}
                        </Stack>
                        <Stack gap={2} align="flex-end">
                          <Text size="xs" c="dimmed" component="div">
                            {t('invoices.lineTotal')}
                          </Text>
                          <Text fw={700} data-testid={`line-total-${i}`}>
                            {f.number(totals.lines[i]?.lineTotal ?? '0')}
                          </Text>
                        </Stack>
                      </SimpleGrid>
                    </Stack>
                  </Card>
                );
              })}
            </Stack>
          ) : (
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('invoices.description')}</Table.Th>
                  <Table.Th w={100}>{t('invoices.quantity')}</Table.Th>
                  <Table.Th w={140}>{t('invoices.unitPrice')}</Table.Th>
                  <Table.Th w={170}>{t('invoices.taxRate')}</Table.Th>
                  <Table.Th w={140} ta="right">
                    {t('invoices.lineTotal')}
                  </Table.Th>
                  <Table.Th w={40} />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {lines.fields.map((line, i) => {
                  const c = cells(i);
                  return (
                    <Table.Tr key={line.id}>
                      <Table.Td>{c.description}</Table.Td>
                      <Table.Td>{c.quantity}</Table.Td>
                      <Table.Td>{c.unitPrice}</Table.Td>
                      <Table.Td>{c.taxRate}</Table.Td>
                      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }} data-testid={`line-total-${i}`}>
                        {f.number(totals.lines[i]?.lineTotal ?? '0')}
                      </Table.Td>
                      <Table.Td>{c.remove}</Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          )}
          <Button
            variant="default"
            size="xs"
            mt="xs"
            onClick={() =>
              lines.append({ description: '', quantity: 1, unitPrice: 0, taxRate: String(rates.defaultVATRate) })
            }
          >
            {t('invoices.addLine')}
          </Button>
        </Card>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Stack>
            <Controller
              control={form.control}
              name="discountAmount"
              render={({ field }) => (
                <NumberInput
                  label={t('invoices.discount')}
                  hideControls
                  min={0}
                  decimalScale={2}
                  {...numberProps}
                  value={field.value}
                  error={errors.discountAmount}
                  onChange={(v) => field.onChange(typeof v === 'number' ? v : 0)}
                />
              )}
            />
            <Textarea label={t('invoices.notes')} autosize minRows={2} {...form.register('notes')} />
          </Stack>
          <Card withBorder aria-live="polite">
            <TotalRow label={t('invoices.subtotal')} value={f.money(totals.subtotal, currency)} />
            <TotalRow label={t('invoices.tax')} value={f.money(totals.taxAmount, currency)} testId="total-tax" />
            <TotalRow label={t('invoices.discount')} value={f.money(totals.discountAmount, currency)} />
            <TotalRow label={t('invoices.total')} value={f.money(totals.totalAmount, currency)} strong testId="total" />
          </Card>
        </SimpleGrid>
        {error ? <ErrorState error={error} /> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => navigate(-1)}>
            {t('app.cancel')}
          </Button>
          <Button type="submit" loading={form.formState.isSubmitting}>
            {t('app.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function TotalRow({
  label,
  value,
  strong,
  testId,
}: {
  label: string;
  value: string;
  strong?: boolean;
  testId?: string;
}) {
  return (
    <Group justify="space-between" py={2}>
      <Text fw={strong ? 700 : 400}>{label}</Text>
      <Text fw={strong ? 700 : 400} data-testid={testId}>
        {value}
      </Text>
    </Group>
  );
}
