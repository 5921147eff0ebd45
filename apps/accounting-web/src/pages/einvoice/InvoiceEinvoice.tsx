import { Alert, Anchor, Button, Card, Group, Modal, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client.js';
import type { paths } from '../../api/schema.generated.js';
import { useAuth } from '../../auth.js';
import { useI18n } from '../../i18n/index.js';
import { ErrorState, Loading } from '../../ui/states.js';
import { ActionError } from './ActionError.js';
import { Field, FiscMessage } from './FiscDetails.js';
import { IntermediaryPanel } from './IntermediaryPanel.js';
import { EinvoiceBadge, useDateTime } from './SefBadge.js';

type WithSef = paths['/api/v1/invoices/{id}/sef']['get']['responses'][200]['content']['application/json'];
type SefState = NonNullable<WithSef['sef']>;

/** When SEF has not answered yet (or the queue retries), the panel asks again every few seconds. */
const POLL_MS = 4000;

/**
 * The invoice's e-invoice delivery on its page: SEF for a Serbian organization, the delivery through
 * Moj-eRačun and fiscalization for a Croatian one; nothing for others. Actions for owners, admins and accountants (the API's WRITERS).
 */
export function InvoiceEinvoice({
  id,
  invoiceStatus,
  currency = 'EUR',
}: {
  id: string;
  invoiceStatus: string;
  currency?: string;
}) {
  const { me } = useAuth();
  const country = me?.organization.country;
  if (country === 'RS') return <SefPanel id={id} invoiceStatus={invoiceStatus} />;
  if (country === 'HR')
    return (
      <>
        <IntermediaryPanel id={id} invoiceStatus={invoiceStatus} currency={currency} />
        <FiscalizationPanel id={id} invoiceStatus={invoiceStatus} />
      </>
    );
  return null;
}

function SefPanel({ id, invoiceStatus }: { id: string; invoiceStatus: string }) {
  const { t } = useI18n();
  const { canWrite } = useAuth();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<'cancel' | 'storno' | null>(null);
  const settings = useQuery({
    queryKey: ['sef-settings'],
    queryFn: async () => unwrap(await api.GET('/api/v1/organization/sef')),
    staleTime: 30_000,
  });
  const query = useQuery({
    queryKey: ['invoice-sef', id],
    queryFn: async () => unwrap(await api.GET('/api/v1/invoices/{id}/sef', { params: { path: { id } } })),
    refetchInterval: (q) =>
      q.state.data?.sef?.status === 'Pending' || q.state.data?.creditNoteSef?.status === 'Pending' ? POLL_MS : false,
  });
  const saved = (data: WithSef) => {
    queryClient.setQueryData(['invoice-sef', id], data);
    queryClient.invalidateQueries({ queryKey: ['invoices'] });
  };
  const send = useMutation({
    mutationFn: async (kind: 'invoice' | 'credit-note') =>
      unwrap(
        kind === 'invoice'
          ? await api.POST('/api/v1/invoices/{id}/sef', { params: { path: { id } } })
          : await api.POST('/api/v1/invoices/{id}/credit-note/sef', { params: { path: { id } } }),
      ),
    onSuccess: saved,
  });

  if (query.isPending) return <Loading />;
  if (query.isError) return <ErrorState error={query.error} retry={() => query.refetch()} />;
  const { sef, creditNoteSef } = query.data;
  const enabled = settings.data?.enabled === true && settings.data.apiKeySet;
  const draft = invoiceStatus === 'draft';
  const canSend = canWrite && enabled && !draft && (!sef || sef.status === 'Failed');
  const canCancel = canWrite && sef?.salesInvoiceId != null && ['Sent', 'New', 'Seen'].includes(sef.status);
  const canStorno =
    canWrite && sef?.salesInvoiceId != null && ['Sent', 'Seen', 'Approved', 'Rejected'].includes(sef.status);
  const canSendCreditNote =
    canWrite && enabled && invoiceStatus === 'cancelled' && (!creditNoteSef || creditNoteSef.status === 'Failed');

  return (
    <Card withBorder data-testid="sef-panel">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={2} size="h4">
            {t('einvoice.sef.title')}
          </Title>
          {sef ? <EinvoiceBadge status={sef.status} /> : null}
        </Group>
        {sef ? (
          <SefDetails sef={sef} />
        ) : (
          <Text size="sm">{draft ? t('einvoice.sef.draftFirst') : t('einvoice.sef.notSent')}</Text>
        )}
        {settings.data && !enabled && !sef ? (
          <Alert color="orange" role="status" p="xs">
            <Text size="sm">{t('einvoice.sef.disabled')}</Text>
            <Anchor component={Link} to="/settings/einvoicing" size="sm" fw={700} c="dark.9" underline="always">
              {t('einvoice.settingsTab')}
            </Anchor>
          </Alert>
        ) : null}
        {creditNoteSef ? (
          <Stack gap={4}>
            <Group gap="xs">
              <Text size="sm" fw={700}>
                {t('einvoice.sef.creditNote')}
              </Text>
              <EinvoiceBadge status={creditNoteSef.status} />
            </Group>
            <SefDetails sef={creditNoteSef} />
          </Stack>
        ) : null}
        {send.error ? <ActionError error={send.error} /> : null}
        {canSend || canCancel || canStorno || canSendCreditNote ? (
          <Group gap="xs">
            {canSend ? (
              <Button
                size="sm"
                loading={send.isPending && send.variables === 'invoice'}
                onClick={() => send.mutate('invoice')}
              >
                {sef ? t('einvoice.sef.sendAgain') : t('einvoice.sef.send')}
              </Button>
            ) : null}
            {canCancel ? (
              <Button size="sm" variant="outline" color="red.9" onClick={() => setDialog('cancel')}>
                {t('einvoice.sef.cancel')}
              </Button>
            ) : null}
            {canStorno ? (
              <Button size="sm" variant="outline" color="red.9" onClick={() => setDialog('storno')}>
                {t('einvoice.sef.storno')}
              </Button>
            ) : null}
            {canSendCreditNote ? (
              <Button
                size="sm"
                variant="default"
                loading={send.isPending && send.variables === 'credit-note'}
                onClick={() => send.mutate('credit-note')}
              >
                {t('einvoice.sef.sendCreditNote')}
              </Button>
            ) : null}
          </Group>
        ) : null}
      </Stack>
      {dialog ? (
        <ReasonDialog
          id={id}
          action={dialog}
          onClose={() => setDialog(null)}
          onDone={(data) => {
            saved(data);
            setDialog(null);
          }}
        />
      ) : null}
    </Card>
  );
}

function SefDetails({ sef }: { sef: SefState }) {
  const { t } = useI18n();
  const dateTime = useDateTime();
  return (
    <Stack gap={4}>
      {sef.salesInvoiceId != null ? <Field label={t('einvoice.sef.invoiceId')}>{sef.salesInvoiceId}</Field> : null}
      <Field label={t('einvoice.sef.requestId')}>
        <Text span size="xs" ff="monospace">
          {sef.requestId}
        </Text>
      </Field>
      <Field label={t('einvoice.sef.updatedAt')}>{dateTime(sef.updatedAt)}</Field>
      {sef.status === 'Pending' ? (
        <Alert color="yellow" role="status" p="xs">
          <Text size="sm">{t('einvoice.sef.retrying')}</Text>
        </Alert>
      ) : null}
      {sef.status === 'Failed' ? (
        <Alert color="red" role="status" p="xs">
          <Text size="sm">{t('einvoice.sef.failed')}</Text>
        </Alert>
      ) : null}
      {sef.lastError ? (
        <Field label={t('einvoice.sef.lastError')}>
          <span data-testid="sef-last-error">{sef.lastError}</span>
        </Field>
      ) : null}
    </Stack>
  );
}

function ReasonDialog({
  id,
  action,
  onClose,
  onDone,
}: {
  id: string;
  action: 'cancel' | 'storno';
  onClose: () => void;
  onDone: (data: WithSef) => void;
}) {
  const { t } = useI18n();
  const [reason, setReason] = useState('');
  const [stornoNumber, setStornoNumber] = useState('');
  const [touched, setTouched] = useState(false);
  const run = useMutation({
    mutationFn: async () => {
      const body = { reason: reason.trim(), ...(stornoNumber.trim() ? { stornoNumber: stornoNumber.trim() } : {}) };
      return unwrap(
        action === 'cancel'
          ? await api.POST('/api/v1/invoices/{id}/sef/cancel', { params: { path: { id } }, body })
          : await api.POST('/api/v1/invoices/{id}/sef/storno', { params: { path: { id } }, body }),
      );
    },
    onSuccess: onDone,
  });
  const title = action === 'cancel' ? t('einvoice.sef.cancel') : t('einvoice.sef.storno');
  return (
    <Modal opened onClose={onClose} title={title} closeButtonProps={{ 'aria-label': t('app.close') }}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (reason.trim()) run.mutate();
        }}
        noValidate
      >
        <Stack>
          <Text size="sm">{action === 'cancel' ? t('einvoice.sef.cancelHelp') : t('einvoice.sef.stornoHelp')}</Text>
          <Textarea
            label={t('einvoice.sef.reason')}
            required
            autosize
            minRows={2}
            maxLength={1000}
            value={reason}
            error={touched && !reason.trim() ? t('app.invalidField') : undefined}
            onChange={(e) => setReason(e.currentTarget.value)}
            data-autofocus
          />
          {action === 'storno' ? (
            <TextInput
              label={t('einvoice.sef.stornoNumber')}
              maxLength={100}
              value={stornoNumber}
              onChange={(e) => setStornoNumber(e.currentTarget.value)}
            />
          ) : null}
          {run.error ? <ActionError error={run.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('app.cancel')}
            </Button>
            <Button type="submit" color="red.9" loading={run.isPending}>
              {title}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

type FiscKind = 'eracun' | 'credit-note' | 'payment';

/**
 * The Croatian fiscalization card: one block per message the invoice owes the Tax Administration (the
 * e-invoice, the credit note of its cancellation, the payment report of e-reporting), each with its
 * state, the answer's error codes and, where the API takes it (never recorded or refused), a button
 * that records it again and sends it now. A pending message is the service's job: the card asks again
 * every few seconds until it is answered.
 */
function FiscalizationPanel({ id, invoiceStatus }: { id: string; invoiceStatus: string }) {
  const { t } = useI18n();
  const { canWrite } = useAuth();
  const queryClient = useQueryClient();
  const settings = useQuery({
    queryKey: ['fiscalization-settings'],
    queryFn: async () => unwrap(await api.GET('/api/v1/organization/fiscalization')),
    staleTime: 30_000,
  });
  // The same query as the Moj-eRačun card's (one request): who fiscalizes what Moj-eRačun sends.
  const intermediary = useQuery({
    queryKey: ['intermediary-settings'],
    queryFn: async () => unwrap(await api.GET('/api/v1/organization/intermediary')),
    staleTime: 30_000,
  });
  const query = useQuery({
    queryKey: ['invoice-fiscalization', id],
    queryFn: async () => unwrap(await api.GET('/api/v1/invoices/{id}/fiscalization', { params: { path: { id } } })),
    refetchInterval: (q) =>
      [q.state.data?.fiscalization, q.state.data?.creditNote, q.state.data?.payment].some(
        (m) => m?.status === 'Pending',
      )
        ? POLL_MS
        : false,
  });
  const run = useMutation({
    mutationFn: async (message: FiscKind) =>
      unwrap(
        await api.POST('/api/v1/invoices/{id}/fiscalization', {
          params: { path: { id } },
          body: message === 'eracun' ? {} : { message },
        }),
      ),
    onSuccess: (data) => {
      queryClient.setQueryData(['invoice-fiscalization', id], data);
      queryClient.invalidateQueries({ queryKey: ['invoices'] });
    },
  });
  if (query.isPending) return <Loading />;
  if (query.isError) return <ErrorState error={query.error} retry={() => query.refetch()} />;
  const { fiscalization: fisc, creditNote, payment } = query.data;
  const ready = settings.data?.certificateSet === true;
  const draft = invoiceStatus === 'draft';
  const fiscalized = fisc?.status === 'Fiscalized';
  // Moj-eRačun fiscalizes what it sends (fiscalizationBy: intermediary): no e-invoice message of our own is
  // offered then, so nothing reaches the Tax Administration twice (one recorded earlier is still shown).
  const byIntermediary =
    intermediary.data?.enabled === true && intermediary.data.fiscalizationBy === 'intermediary' && !fisc;
  const canRun = canWrite && ready && !draft && !fiscalized && fisc?.status !== 'Pending' && !byIntermediary;
  // The credit note and the payment refer to the fiscalized e-invoice: offered once it is, and only
  // when the invoice was cancelled or paid (or the earlier attempt was refused).
  const canCreditNote =
    canWrite && ready && fiscalized && (creditNote ? creditNote.status === 'Failed' : invoiceStatus === 'cancelled');
  const canPayment =
    canWrite && ready && fiscalized && (payment ? payment.status === 'Failed' : invoiceStatus === 'paid');
  const button = (message: FiscKind, label: string, primary: boolean) => (
    <Group>
      <Button
        size="sm"
        variant={primary ? 'filled' : 'default'}
        loading={run.isPending && run.variables === message}
        disabled={run.isPending && run.variables !== message}
        onClick={() => run.mutate(message)}
      >
        {label}
      </Button>
    </Group>
  );
  return (
    <Card withBorder data-testid="fiscalization-panel">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={2} size="h4">
            {t('einvoice.fisc.title')}
          </Title>
        </Group>
        <FiscMessage
          title={t('einvoice.fisc.message.eracun')}
          state={fisc}
          none={byIntermediary ? t('einvoice.fisc.byIntermediary') : t('einvoice.fisc.none')}
          testId="fisc-eracun"
        >
          {canRun ? button('eracun', fisc ? t('einvoice.fisc.again') : t('einvoice.fisc.fiscalize'), true) : null}
        </FiscMessage>
        {creditNote || (fiscalized && invoiceStatus === 'cancelled') ? (
          <FiscMessage
            title={t('einvoice.fisc.message.creditNote')}
            state={creditNote}
            none={t('einvoice.fisc.creditNoteNone')}
            testId="fisc-credit-note"
          >
            {canCreditNote
              ? button(
                  'credit-note',
                  creditNote ? t('einvoice.fisc.sendAgain') : t('einvoice.fisc.reportCreditNote'),
                  false,
                )
              : null}
          </FiscMessage>
        ) : null}
        {payment || (fiscalized && invoiceStatus === 'paid') ? (
          <FiscMessage
            title={t('einvoice.fisc.message.payment')}
            state={payment}
            none={t('einvoice.fisc.paymentNone')}
            testId="fisc-payment"
          >
            {canPayment
              ? button('payment', payment ? t('einvoice.fisc.sendAgain') : t('einvoice.fisc.reportPayment'), false)
              : null}
          </FiscMessage>
        ) : null}
        {settings.data && !ready && !fiscalized && !byIntermediary ? (
          <Alert color="orange" role="status" p="xs">
            <Text size="sm">{t('einvoice.fisc.noCertificate')}</Text>
            <Anchor component={Link} to="/settings/einvoicing" size="sm" fw={700} c="dark.9" underline="always">
              {t('einvoice.settingsTab')}
            </Anchor>
          </Alert>
        ) : null}
        {run.error ? <ActionError error={run.error} /> : null}
      </Stack>
    </Card>
  );
}
