import { Alert, Anchor, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { api, fetchBlob, unwrap } from '../api/client.js';
import { useI18n } from '../i18n/index.js';
import { dateTime, money, rate } from '../ui/format.js';
import { StatusBadge } from '../ui/StatusBadge.js';
import { ErrorState, Loading, QueryView } from '../ui/states.js';

/**
 * One payment with its receipt; the receipt PDF is shown in the page and can be downloaded. Also
 * where the bank sends the user back after authorizing a payment (issue 30): the service's payment
 * callback redirects to /transactions/<id>?status=..[&error=payment_failed].
 */
export default function TransactionView() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const backFromBank = params.get('status') !== null;
  const failedAtBank = params.get('error') === 'payment_failed';
  const { t, locale } = useI18n();
  const tx = useQuery({
    queryKey: ['transactions', 'one', id],
    queryFn: async () => unwrap(await api.GET('/api/transactions/{id}', { params: { path: { id } } })).data,
    // Processing payments settle within seconds in the sandbox: look again until they have.
    refetchInterval: (q) =>
      q.state.data?.status === 'processing' || q.state.data?.status === 'initiating' ? 3000 : false,
  });
  const receipt = useQuery({
    queryKey: ['transactions', 'one', id, 'receipt'],
    queryFn: async () => unwrap(await api.GET('/api/transactions/{id}/receipt', { params: { path: { id } } })).data,
  });
  const [showPdf, setShowPdf] = useState(false);

  return (
    <Stack gap="md">
      <Anchor component={Link} to="/history" size="sm">
        ← {t('history.title')}
      </Anchor>
      <QueryView query={tx}>
        {(d) => (
          <Stack gap="md">
            {failedAtBank || (backFromBank && d.status === 'failed') ? (
              <Alert color="red" role="alert">
                {t('tx.backFailed')}
              </Alert>
            ) : backFromBank && (d.status === 'initiating' || d.status === 'processing') ? (
              <Alert color="blue" role="status">
                {t('tx.backPending')}
              </Alert>
            ) : null}
            <Group justify="space-between">
              <Title order={1} size="h2">
                {d.recipientName}
              </Title>
              <StatusBadge status={d.status} />
            </Group>
            <Table withTableBorder variant="vertical">
              <Table.Tbody>
                <Row k={t('history.type')} v={t(`type.${d.type}`)} />
                <Row k={t('disclosure.amount')} v={money(d.sendAmount, d.sendCurrency, locale)} />
                <Row k={t('disclosure.feeShort')} v={money(d.fee, d.sendCurrency, locale)} />
                <Row k={t('disclosure.total')} v={money(d.total, d.sendCurrency, locale)} />
                {d.type === 'remittance' ? (
                  <>
                    <Row
                      k={t('disclosure.rate')}
                      v={`1 ${d.sendCurrency} = ${rate(d.exchangeRate, locale)} ${d.receiveCurrency}`}
                    />
                    <Row k={t('disclosure.receives')} v={money(d.receiveAmount, d.receiveCurrency, locale)} />
                  </>
                ) : null}
                <Row k={t('history.created')} v={dateTime(d.createdAt, locale)} />
                <Row k={t('history.completed')} v={dateTime(d.completedAt, locale)} />
                {receipt.data ? <Row k={t('history.reference')} v={receipt.data.reference} /> : null}
              </Table.Tbody>
            </Table>
            <Group>
              <Button onClick={() => setShowPdf(true)} disabled={showPdf}>
                {t('history.receipt')}
              </Button>
            </Group>
            {showPdf ? <ReceiptPdf id={id} /> : null}
          </Stack>
        )}
      </QueryView>
    </Stack>
  );
}

function Row({ k, v }: { k: string; v: string }) {
  return (
    <Table.Tr>
      <Table.Th w="40%">{k}</Table.Th>
      <Table.Td style={{ overflowWrap: 'anywhere' }}>{v}</Table.Td>
    </Table.Tr>
  );
}

function ReceiptPdf({ id }: { id: string }) {
  const { t } = useI18n();
  const pdf = useQuery({
    queryKey: ['receipt-pdf', id],
    queryFn: () => fetchBlob(`/api/transactions/${encodeURIComponent(id)}/receipt.pdf`),
    staleTime: Number.POSITIVE_INFINITY,
  });
  useEffect(() => () => pdf.data && URL.revokeObjectURL(pdf.data.url), [pdf.data]);
  if (pdf.isPending) return <Loading />;
  if (pdf.error || !pdf.data) return <ErrorState error={pdf.error} retry={() => pdf.refetch()} />;
  return (
    <Stack gap="xs">
      <iframe
        title={t('history.receipt')}
        src={pdf.data.url}
        style={{ width: '100%', height: '70vh', border: '1px solid #ccc' }}
      />
      <Text size="sm">
        <Anchor href={pdf.data.url} download={pdf.data.filename ?? `receipt-${id}.pdf`}>
          {t('history.downloadPdf')}
        </Anchor>
      </Text>
    </Stack>
  );
}
