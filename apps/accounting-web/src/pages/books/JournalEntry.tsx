import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Card,
  Grid,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import Decimal from 'decimal.js';
import { useState } from 'react';
import { Controller, useFieldArray, useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client.js';
import { useAuth } from '../../auth.js';
import { useI18n } from '../../i18n/index.js';
import { useFormat } from '../../ui/format.js';
import { today } from '../../ui/period.js';
import { ErrorState, Loading, useFieldErrors } from '../../ui/states.js';
import { useAccounts } from './accounts.js';
import '@mantine/dates/styles.css';
import { DateField } from '../../ui/DateField.js';

interface Line {
  accountId: string | null;
  debit: number | '';
  credit: number | '';
}
interface FormValues {
  transactionDate: string;
  description: string;
  notes: string;
  lines: Line[];
}

const dec = (v: number | '') => new Decimal(v === '' ? 0 : v);

/** The sums of the lines and whether they make a postable entry (balanced, each line one side, both sides used). */
export function checkLines(lines: Line[]) {
  let debit = new Decimal(0);
  let credit = new Decimal(0);
  let bad = false;
  let debits = 0;
  let credits = 0;
  for (const l of lines) {
    const d = dec(l.debit);
    const c = dec(l.credit);
    debit = debit.plus(d);
    credit = credit.plus(c);
    if (d.isNeg() || c.isNeg() || (d.gt(0) && c.gt(0)) || (d.isZero() && c.isZero()) || !l.accountId) bad = true;
    if (d.gt(0)) debits++;
    if (c.gt(0)) credits++;
  }
  const difference = debit.minus(credit);
  return {
    debit,
    credit,
    difference,
    balanced: difference.isZero() && debit.gt(0),
    complete: !bad && debits > 0 && credits > 0,
  };
}

export default function JournalEntry() {
  const { t, locale } = useI18n();
  const f = useFormat();
  const { me, canWrite } = useAuth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const accounts = useAccounts();
  const [error, setError] = useState<unknown>(null);
  const [tried, setTried] = useState(false);
  const first = params.get('account');
  const form = useForm<FormValues>({
    defaultValues: {
      transactionDate: today(),
      description: '',
      notes: '',
      lines: [
        { accountId: first, debit: '', credit: '' },
        { accountId: null, debit: '', credit: '' },
      ],
    },
  });
  const lines = useFieldArray({ control: form.control, name: 'lines' });
  const watched = useWatch({ control: form.control, name: 'lines' });
  const fieldErrors = useFieldErrors(error);
  const base = me?.organization.baseCurrency ?? '';
  const numberProps =
    locale === 'en'
      ? { decimalSeparator: '.', thousandSeparator: ',' }
      : { decimalSeparator: ',', thousandSeparator: '.' };

  if (accounts.isPending) return <Loading />;
  if (accounts.isError) return <ErrorState error={accounts.error} retry={() => accounts.refetch()} />;
  if (!canWrite)
    return (
      <Alert color="red" role="alert">
        {t('app.forbidden')}
      </Alert>
    );
  const options = accounts.data.filter((a) => a.isActive).map((a) => ({ value: a.id, label: `${a.code} ${a.name}` }));
  const check = checkLines(watched ?? []);

  const onSubmit = form.handleSubmit(async (values) => {
    setTried(true);
    setError(null);
    const c = checkLines(values.lines);
    if (!c.balanced || !c.complete || !values.description.trim()) return;
    // One request: the service saves every posting of the entry or none (POST /transactions/entries).
    let entryId: string;
    try {
      ({ entryId } = unwrap(
        await api.POST('/api/v1/transactions/entries', {
          body: {
            transactionDate: values.transactionDate,
            description: values.description.trim(),
            notes: values.notes.trim() || null,
            lines: values.lines.map((l) => ({
              accountId: l.accountId!,
              ...(dec(l.debit).gt(0) ? { debit: Number(dec(l.debit).toFixed(2)) } : {}),
              ...(dec(l.credit).gt(0) ? { credit: Number(dec(l.credit).toFixed(2)) } : {}),
            })),
          },
        }),
      ));
    } catch (err) {
      setError(err);
      return;
    }
    queryClient.invalidateQueries({ queryKey: ['accounts'] });
    queryClient.invalidateQueries({ queryKey: ['account'] });
    queryClient.invalidateQueries({ queryKey: ['postings'] });
    queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    // Started from an account: back to it, the posting in its list. Otherwise the entry just saved,
    // every line of it, with a word that it is posted.
    navigate(first ? `/ledger/accounts/${first}` : `/ledger/entries/${entryId}`, { state: { posted: true } });
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        <Anchor component={Link} to="/ledger" size="sm">
          ← {t('books.ledger.title')}
        </Anchor>
        <Title order={1} size="h2">
          {t('books.journal.new')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Controller
            control={form.control}
            name="transactionDate"
            render={({ field }) => (
              <DateField
                label={t('books.date')}
                required
                value={field.value}
                error={fieldErrors.transactionDate}
                onChange={(v) => field.onChange(v ?? '')}
              />
            )}
          />
          <TextInput
            label={t('books.description')}
            required
            error={
              fieldErrors.description ??
              (tried && !form.getValues('description').trim() ? t('books.journal.descriptionRequired') : undefined)
            }
            {...form.register('description')}
          />
        </SimpleGrid>
        <Card withBorder p="sm">
          <Title order={2} size="h4" mb="xs">
            {t('books.journal.lines')}
          </Title>
          <Stack gap="sm">
            {lines.fields.map((line, i) => (
              <Grid key={line.id} gutter="xs" align="flex-end">
                <Grid.Col span={{ base: 12, sm: 6 }}>
                  <Controller
                    control={form.control}
                    name={`lines.${i}.accountId`}
                    render={({ field }) => (
                      <Select
                        label={`${t('books.account')} ${i + 1}`}
                        searchable
                        data={options}
                        value={field.value}
                        nothingFoundMessage={t('app.empty')}
                        error={
                          fieldErrors[`lines[${i}].accountId`] ??
                          (tried && !field.value ? t('books.journal.accountRequired') : undefined)
                        }
                        onChange={(v) => field.onChange(v)}
                      />
                    )}
                  />
                </Grid.Col>
                {(['debit', 'credit'] as const).map((side) => (
                  <Grid.Col key={side} span={{ base: 5, sm: 2.5 }}>
                    <Controller
                      control={form.control}
                      name={`lines.${i}.${side}`}
                      render={({ field }) => (
                        <NumberInput
                          label={`${t(side === 'debit' ? 'books.debit' : 'books.credit')} ${i + 1}`}
                          hideControls
                          min={0}
                          decimalScale={2}
                          {...numberProps}
                          error={fieldErrors[`lines[${i}].${side}`] ?? fieldErrors[`lines[${i}]`]}
                          value={field.value}
                          onChange={(v) => field.onChange(typeof v === 'number' ? v : '')}
                        />
                      )}
                    />
                  </Grid.Col>
                ))}
                <Grid.Col span={{ base: 2, sm: 1 }}>
                  <ActionIcon
                    variant="subtle"
                    color="red.9"
                    c="red.9"
                    size="lg"
                    aria-label={t('books.journal.removeLine', { n: i + 1 })}
                    disabled={lines.fields.length <= 2}
                    onClick={() => lines.remove(i)}
                  >
                    ×
                  </ActionIcon>
                </Grid.Col>
              </Grid>
            ))}
          </Stack>
          <Button
            variant="default"
            size="xs"
            mt="sm"
            onClick={() => lines.append({ accountId: null, debit: '', credit: '' })}
          >
            {t('books.journal.addLine')}
          </Button>
        </Card>
        <Card withBorder aria-live="polite">
          <Group justify="space-between">
            <Text>{t('books.journal.totalDebit')}</Text>
            <Text data-testid="journal-debit">{f.money(check.debit.toFixed(2), base)}</Text>
          </Group>
          <Group justify="space-between">
            <Text>{t('books.journal.totalCredit')}</Text>
            <Text data-testid="journal-credit">{f.money(check.credit.toFixed(2), base)}</Text>
          </Group>
          <Group justify="space-between">
            <Text fw={700}>{t('books.journal.difference')}</Text>
            <Text fw={700} c={check.difference.isZero() ? undefined : 'red.9'} data-testid="journal-difference">
              {f.money(check.difference.toFixed(2), base)}
            </Text>
          </Group>
        </Card>
        {tried && !check.balanced ? (
          <Alert color="red" role="alert">
            {t('books.journal.unbalanced')}
          </Alert>
        ) : null}
        {tried && check.balanced && !check.complete ? (
          <Alert color="red" role="alert">
            {t('books.journal.incomplete')}
          </Alert>
        ) : null}
        <Textarea label={t('invoices.notes')} autosize minRows={2} {...form.register('notes')} />
        {error ? <ErrorState error={error} /> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => navigate(-1)}>
            {t('app.cancel')}
          </Button>
          <Button type="submit" loading={form.formState.isSubmitting}>
            {t('books.journal.post')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
