import { Alert, Anchor, Button, Card, Group, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { api, newIdempotencyKey, type paths, unwrap } from '../api/client.js';
import { useI18n } from '../i18n/index.js';
import { parseTypedAmount } from '../lib/amount.js';
import { Disclosure, type DisclosureData } from '../ui/Disclosure.js';
import { money } from '../ui/format.js';
import { PAYMENT_KEYS, useBankAccounts, useRecipients } from '../ui/queries.js';
import { StatusBadge } from '../ui/StatusBadge.js';
import { Empty, ErrorState, Loading } from '../ui/states.js';

interface SendForm {
  recipientId: string;
  amount: string;
  bankAccountId: string;
}

type Sent = paths['/api/transactions/remittance']['post']['responses'][201]['content']['application/json']['data'];

/**
 * Send money: amount and recipient, then the disclosure (fee, rate, amount received, total cost,
 * delivery) before the user confirms. The confirmation carries one Idempotency-Key, made when the
 * disclosure is shown and reused by a double click or a retry, so it never pays twice (R9).
 */
export default function Send() {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const recipients = useRecipients();
  const accounts = useBankAccounts();
  const form = useForm<SendForm>({
    defaultValues: { recipientId: params.get('recipient') ?? '', amount: '', bankAccountId: '' },
  });
  const [review, setReview] = useState<{ body: SendForm & { value: number }; d: DisclosureData } | null>(null);
  const key = useRef<string | null>(null);

  const disclose = useMutation({
    mutationFn: async (v: SendForm) => {
      const value = parseTypedAmount(v.amount) as number;
      const d = unwrap(
        await api.POST('/api/transactions/disclosure', {
          body: { type: 'remittance', amount: value, recipientId: v.recipientId },
        }),
      );
      return { body: { ...v, value }, d };
    },
    onSuccess: (r) => {
      key.current = newIdempotencyKey();
      setReview(r);
    },
  });
  const confirm = useMutation({
    mutationFn: async () => {
      if (!review || !key.current) throw new Error('nothing to confirm');
      const { body } = review;
      return unwrap(
        await api.POST('/api/transactions/remittance', {
          params: { header: { 'idempotency-key': key.current } },
          body: {
            recipientId: body.recipientId,
            amount: body.value,
            ...(body.bankAccountId ? { bankAccountId: body.bankAccountId } : {}),
          },
        }),
      ).data;
    },
    onSuccess: (sent) => {
      for (const k of PAYMENT_KEYS) queryClient.invalidateQueries({ queryKey: k });
      // The bank needs the user (issue 30): authorize there; the bank sends the browser back to
      // /api/payments/callback, which lands on this payment's page.
      if (sent.authorizationUrl) window.location.assign(sent.authorizationUrl);
    },
  });

  if (recipients.isPending || accounts.isPending) return <Loading />;
  if (recipients.error || accounts.error)
    return <ErrorState error={recipients.error ?? accounts.error} retry={() => recipients.refetch()} />;
  const list = recipients.data ?? [];
  const banks = accounts.data?.data ?? [];
  if (!banks.length)
    return (
      <Empty>
        {t('send.needBank')}{' '}
        <Anchor component={Link} to="/bank-accounts">
          {t('banks.link')}
        </Anchor>
      </Empty>
    );
  if (!list.length)
    return (
      <Empty>
        {t('send.needRecipient')}{' '}
        <Anchor component={Link} to="/recipients">
          {t('recipients.add')}
        </Anchor>
      </Empty>
    );

  if (confirm.data) return <SendResult sent={confirm.data} />;
  const recipient = list.find((r) => r.id === (review?.body.recipientId ?? ''));
  const { errors } = form.formState;

  return (
    <Stack gap="lg" maw={560}>
      <Title order={1} size="h2">
        {t('send.title')}
      </Title>
      {!review ? (
        <form onSubmit={form.handleSubmit((v) => disclose.mutate(v))} noValidate>
          <Stack gap="sm">
            <NativeSelect
              label={t('send.recipient')}
              required
              error={errors.recipientId?.message}
              data={[
                { value: '', label: t('send.chooseRecipient') },
                ...list.map((r) => ({ value: r.id, label: `${r.name} (${r.country}, ${r.currency})` })),
              ]}
              {...form.register('recipientId', { required: t('send.chooseRecipient') })}
            />
            <TextInput
              label={t('send.amount')}
              description={t('send.amountHint')}
              inputMode="decimal"
              required
              autoComplete="off"
              error={errors.amount?.message}
              {...form.register('amount', {
                validate: (v) => {
                  const n = parseTypedAmount(v);
                  return (n !== null && n > 0) || t('send.badAmount');
                },
              })}
            />
            <NativeSelect
              label={t('send.from')}
              data={[
                { value: '', label: t('send.primaryAccount') },
                ...banks.map((b) => ({
                  value: b.id,
                  label: `${b.accountName ?? b.bankName} · ${money(b.balance, b.currency, locale)}`,
                })),
              ]}
              {...form.register('bankAccountId')}
            />
            {disclose.error ? <ErrorState error={disclose.error} /> : null}
            <Button type="submit" loading={disclose.isPending}>
              {t('send.review')}
            </Button>
          </Stack>
        </form>
      ) : (
        <Card withBorder>
          <Stack gap="sm">
            <Title order={2} size="h4">
              {t('disclosure.title')}
            </Title>
            <Disclosure d={review.d} payee={recipient?.name ?? ''} />
            {confirm.error ? <ErrorState error={confirm.error} /> : null}
            <Group>
              <Button onClick={() => confirm.mutate()} loading={confirm.isPending} data-testid="confirm-send">
                {t('send.confirm', { total: money(review.d.totalCost, 'NOK', locale) })}
              </Button>
              <Button variant="default" onClick={() => setReview(null)} disabled={confirm.isPending}>
                {t('app.back')}
              </Button>
            </Group>
          </Stack>
        </Card>
      )}
    </Stack>
  );
}

function SendResult({ sent }: { sent: Sent }) {
  const { t, locale } = useI18n();
  return (
    <Stack gap="md" maw={560}>
      <Alert color="teal" title={t('send.done')} role="status">
        {t('send.doneBody', {
          amount: money(sent.receiveAmount, sent.receiveCurrency, locale),
          name: sent.recipientName,
        })}
      </Alert>
      <Group>
        <StatusBadge status={sent.status} />
        <Text size="sm">{t('send.charged', { total: money(sent.total, sent.sendCurrency, locale) })}</Text>
      </Group>
      <Group>
        <Button component={Link} to={`/history/${sent.id}`}>
          {t('history.receipt')}
        </Button>
        <Button component={Link} to="/dashboard" variant="default">
          {t('nav.dashboard')}
        </Button>
      </Group>
    </Stack>
  );
}
