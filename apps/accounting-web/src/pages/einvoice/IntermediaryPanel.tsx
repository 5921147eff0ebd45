import { Alert, Anchor, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client.js';
import type { paths } from '../../api/schema.generated.js';
import { useAuth } from '../../auth.js';
import { useI18n } from '../../i18n/index.js';
import { useFormat } from '../../ui/format.js';
import { ErrorState, Loading } from '../../ui/states.js';
import { ActionError } from './ActionError.js';
import { Field } from './FiscDetails.js';
import { EinvoiceBadge, useDateTime } from './SefBadge.js';

type Delivery = paths['/api/v1/invoices/{id}/intermediary']['get']['responses'][200]['content']['application/json'];
type DeliveryState = NonNullable<Delivery['intermediary']>;
type PaymentReport = NonNullable<DeliveryState['paymentReport']>;

/**
 * While a document or the payment report waits for Moj-eRačun (the delivery job retries), the card asks
 * again every few seconds.
 */
const POLL_MS = 4000;

/**
 * The Croatian invoice's delivery through the information intermediary (Moj-eRačun): the e-invoice and,
 * for a cancelled invoice, its credit note, each with its status, the number and id Moj-eRačun knows it
 * by, Moj-eRačun's status name and the buyer's rejection reason, the last error, and while Pending the
 * attempts and the next one. Send (and send again after Failed) for owners, admins and accountants.
 * Undeliverable is final in the API (a POST leaves it as it is), so it offers no button. With
 * `fiscalizationBy: intermediary`, the payment report Moj-eRačun makes of a paid invoice (markPaid):
 * its status, date, amount, the last error and while Pending the attempts and the next one.
 */
export function IntermediaryPanel({
  id,
  invoiceStatus,
  currency = 'EUR',
}: {
  id: string;
  invoiceStatus: string;
  currency?: string;
}) {
  const { t } = useI18n();
  const { canWrite } = useAuth();
  const queryClient = useQueryClient();
  const settings = useQuery({
    queryKey: ['intermediary-settings'],
    queryFn: async () => unwrap(await api.GET('/api/v1/organization/intermediary')),
    staleTime: 30_000,
  });
  const query = useQuery({
    queryKey: ['invoice-intermediary', id],
    queryFn: async () => unwrap(await api.GET('/api/v1/invoices/{id}/intermediary', { params: { path: { id } } })),
    refetchInterval: (q) =>
      q.state.data?.intermediary?.status === 'Pending' ||
      q.state.data?.intermediary?.paymentReport?.status === 'Pending' ||
      q.state.data?.creditNoteIntermediary?.status === 'Pending'
        ? POLL_MS
        : false,
  });
  const send = useMutation({
    mutationFn: async (kind: 'invoice' | 'credit-note') =>
      unwrap(
        kind === 'invoice'
          ? await api.POST('/api/v1/invoices/{id}/intermediary', { params: { path: { id } } })
          : await api.POST('/api/v1/invoices/{id}/credit-note/intermediary', { params: { path: { id } } }),
      ),
    onSuccess: (data) => {
      queryClient.setQueryData(['invoice-intermediary', id], data);
      queryClient.invalidateQueries({ queryKey: ['invoices'] });
    },
  });
  if (query.isPending) return <Loading />;
  if (query.isError) return <ErrorState error={query.error} retry={() => query.refetch()} />;
  const { intermediary: doc, creditNoteIntermediary: creditNote } = query.data;
  const enabled = settings.data?.enabled === true && settings.data.passwordSet;
  const draft = invoiceStatus === 'draft';
  const canSend = canWrite && enabled && !draft && (!doc || doc.status === 'Failed');
  // The credit note refers to the e-invoice Moj-eRačun took: offered once it did and the invoice was cancelled.
  const delivered = doc != null && !['Pending', 'Failed'].includes(doc.status);
  const canSendCreditNote =
    canWrite &&
    enabled &&
    invoiceStatus === 'cancelled' &&
    delivered &&
    (!creditNote || creditNote.status === 'Failed');
  const button = (kind: 'invoice' | 'credit-note', label: string, primary: boolean) => (
    <Group>
      <Button
        size="sm"
        variant={primary ? 'filled' : 'default'}
        loading={send.isPending && send.variables === kind}
        disabled={send.isPending && send.variables !== kind}
        onClick={() => send.mutate(kind)}
      >
        {label}
      </Button>
    </Group>
  );
  return (
    <Card withBorder data-testid="intermediary-panel">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('einvoice.mer.title')}
        </Title>
        <DeliveryBlock
          title={t('einvoice.fisc.message.eracun')}
          state={doc}
          none={draft ? t('einvoice.mer.draftFirst') : t('einvoice.mer.notSent')}
          testId="mer-invoice"
        >
          {canSend ? button('invoice', doc ? t('einvoice.mer.sendAgain') : t('einvoice.mer.send'), true) : null}
        </DeliveryBlock>
        {doc?.paymentReport ? <PaymentReportBlock report={doc.paymentReport} currency={currency} /> : null}
        {creditNote || (delivered && invoiceStatus === 'cancelled') ? (
          <DeliveryBlock
            title={t('einvoice.fisc.message.creditNote')}
            state={creditNote}
            none={t('einvoice.mer.creditNoteNone')}
            testId="mer-credit-note"
          >
            {canSendCreditNote
              ? button(
                  'credit-note',
                  creditNote ? t('einvoice.mer.sendAgain') : t('einvoice.mer.sendCreditNote'),
                  false,
                )
              : null}
          </DeliveryBlock>
        ) : null}
        {settings.data && !enabled && !doc ? (
          <Alert color="orange" role="status" p="xs">
            <Text size="sm">{t('einvoice.mer.disabled')}</Text>
            <Anchor component={Link} to="/settings/einvoicing" size="sm" fw={700} c="dark.9" underline="always">
              {t('einvoice.settingsTab')}
            </Anchor>
          </Alert>
        ) : null}
        {send.error ? <ActionError error={send.error} /> : null}
      </Stack>
    </Card>
  );
}

/** One document's delivery: status, Moj-eRačun's number, id and status name, the buyer's reason, errors. */
function DeliveryBlock({
  title,
  state,
  none,
  testId,
  children,
}: {
  title: string;
  state: DeliveryState | null;
  none: string;
  testId: string;
  children?: React.ReactNode;
}) {
  const { t } = useI18n();
  const dateTime = useDateTime();
  return (
    <Stack gap={4} data-testid={testId} component="section" aria-label={title}>
      <Group gap="xs" wrap="wrap">
        <Text size="sm" fw={700}>
          {title}
        </Text>
        {state ? (
          <span data-testid={`${testId}-status`}>
            <EinvoiceBadge kind="mer" status={state.status} />
          </span>
        ) : null}
      </Group>
      {state ? (
        <>
          <Field label={t('einvoice.mer.documentNumber')}>{state.documentNumber}</Field>
          {state.documentId ? <Field label={t('einvoice.mer.documentId')}>{state.documentId}</Field> : null}
          {state.providerStatus ? <Field label={t('einvoice.mer.providerStatus')}>{state.providerStatus}</Field> : null}
          {state.statusReason ? (
            <Field label={t('einvoice.mer.statusReason')}>
              <span data-testid={`${testId}-reason`}>{state.statusReason}</span>
            </Field>
          ) : null}
          {state.sentAt ? <Field label={t('einvoice.mer.sentAt')}>{dateTime(state.sentAt)}</Field> : null}
          <Field label={t('einvoice.sef.updatedAt')}>{dateTime(state.updatedAt)}</Field>
          {state.status === 'Pending' ? (
            <>
              {state.attempts > 0 ? <Field label={t('einvoice.fisc.attempts')}>{state.attempts}</Field> : null}
              {state.nextAttemptAt ? (
                <Field label={t('einvoice.fisc.nextAttempt')}>{dateTime(state.nextAttemptAt)}</Field>
              ) : null}
              <Alert color="yellow" role="status" p="xs">
                <Text size="sm">{t('einvoice.mer.pendingHelp')}</Text>
              </Alert>
            </>
          ) : null}
          {state.status === 'Failed' ? (
            <Alert color="red" role="status" p="xs">
              <Text size="sm">{t('einvoice.mer.failedHelp')}</Text>
            </Alert>
          ) : null}
          {state.status === 'Undeliverable' ? (
            <Alert color="red" role="status" p="xs">
              <Text size="sm">{t('einvoice.mer.undeliverableHelp')}</Text>
            </Alert>
          ) : null}
          {state.lastError ? (
            <Field label={t('einvoice.mer.lastError')}>
              <span data-testid={`${testId}-error`}>{state.lastError}</span>
            </Field>
          ) : null}
        </>
      ) : (
        <Text size="sm">{none}</Text>
      )}
      {children}
    </Stack>
  );
}

/** The payment report Moj-eRačun makes of the paid invoice (markPaid), when the organization lets it fiscalize. */
function PaymentReportBlock({ report, currency }: { report: PaymentReport; currency: string }) {
  const { t } = useI18n();
  const f = useFormat();
  const dateTime = useDateTime();
  const title = t('einvoice.mer.payment.title');
  return (
    <Stack gap={4} data-testid="mer-payment" component="section" aria-label={title}>
      <Group gap="xs" wrap="wrap">
        <Text size="sm" fw={700}>
          {title}
        </Text>
        <span data-testid="mer-payment-status">
          <EinvoiceBadge kind="merPayment" status={report.status} />
        </span>
      </Group>
      <Field label={t('einvoice.mer.payment.paidAt')}>{f.date(report.paidAt.slice(0, 10))}</Field>
      <Field label={t('einvoice.mer.payment.amount')}>{f.money(report.amount, currency)}</Field>
      {report.reportedAt ? (
        <Field label={t('einvoice.mer.payment.reportedAt')}>{dateTime(report.reportedAt)}</Field>
      ) : null}
      {report.fiscalizedAt ? (
        <Field label={t('einvoice.mer.payment.fiscalizedAt')}>{dateTime(report.fiscalizedAt)}</Field>
      ) : null}
      <Field label={t('einvoice.sef.updatedAt')}>{dateTime(report.updatedAt)}</Field>
      {report.status === 'Pending' ? (
        <>
          {report.attempts > 0 ? <Field label={t('einvoice.fisc.attempts')}>{report.attempts}</Field> : null}
          {report.nextAttemptAt ? (
            <Field label={t('einvoice.fisc.nextAttempt')}>{dateTime(report.nextAttemptAt)}</Field>
          ) : null}
          <Alert color="yellow" role="status" p="xs">
            <Text size="sm">{t('einvoice.mer.payment.pendingHelp')}</Text>
          </Alert>
        </>
      ) : null}
      {report.status === 'Failed' ? (
        <Alert color="red" role="status" p="xs">
          <Text size="sm">{t('einvoice.mer.payment.failedHelp')}</Text>
        </Alert>
      ) : null}
      {report.lastError ? (
        <Field label={t('einvoice.mer.lastError')}>
          <span data-testid="mer-payment-error">{report.lastError}</span>
        </Field>
      ) : null}
    </Stack>
  );
}
