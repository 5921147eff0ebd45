import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Image,
  Modal,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError, api, fetchBlob, unwrap } from '../api/client.js';
import { useAuth } from '../auth.js';
import { useI18n } from '../i18n/index.js';
import { useFormat } from '../ui/format.js';
import { today } from '../ui/period.js';
import { ScrollTable } from '../ui/ScrollTable.js';
import { StatusBadge } from '../ui/StatusBadge.js';
import { ErrorState, Loading } from '../ui/states.js';
import { InvoiceEinvoice } from './einvoice/InvoiceEinvoice.js';
import { TotalRow } from './InvoiceEdit.js';

/** An authenticated file as an object URL, revoked when the page leaves. */
function useBlob(path: string, enabled: boolean, version: string) {
  const query = useQuery({
    queryKey: ['blob', path, version],
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    queryFn: () => fetchBlob(path),
  });
  useEffect(() => () => (query.data ? URL.revokeObjectURL(query.data.url) : undefined), [query.data]);
  return query;
}

async function download(path: string, fallbackName: string) {
  const file = await fetchBlob(path);
  const a = document.createElement('a');
  a.href = file.url;
  a.download = file.filename ?? fallbackName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(file.url), 10_000);
}

export default function InvoiceView() {
  const { id } = useParams() as { id: string };
  const { t } = useI18n();
  const f = useFormat();
  const { canWrite, me } = useAuth();
  const queryClient = useQueryClient();
  const [sending, setSending] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const query = useQuery({
    queryKey: ['invoice', id],
    queryFn: async () => unwrap(await api.GET('/api/v1/invoices/{id}', { params: { path: { id } } })),
  });
  const inv = query.data;
  // A draft has no PDF yet (SVC-3010): it is rendered when the invoice is sent.
  const hasPdf = Boolean(inv && inv.status !== 'draft');
  const pdf = useBlob(`/api/v1/invoices/${id}/pdf`, hasPdf, inv?.updatedAt ?? '');
  const country = me?.organization.country;
  const hasPaymentCode = country === 'RS' || country === 'HR';
  // The code follows the organization's country (HUB-3A in Croatia, IPS QR in Serbia), not the UI language.
  const paymentCode = country === 'HR' || country === 'RS' ? t(`einvoice.paymentCode.${country}`) : '';
  const code = useBlob(
    `/api/v1/invoices/${id}/payment-code`,
    hasPdf && hasPaymentCode && inv?.status !== 'cancelled',
    inv?.updatedAt ?? '',
  );
  const refresh = () => {
    queryClient.invalidateQueries({ queryKey: ['invoice', id] });
    queryClient.invalidateQueries({ queryKey: ['invoices'] });
    queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    queryClient.invalidateQueries({ queryKey: ['invoice-sef', id] });
  };
  const action = useMutation({
    mutationFn: async (a: 'mark-paid' | 'cancel') =>
      unwrap(
        await api.PATCH('/api/v1/invoices/{id}/status', {
          params: { path: { id } },
          body: a === 'mark-paid' ? { action: a, paidAt: today() } : { action: a },
        }),
      ),
    onMutate: () => setNotice(null),
    onSuccess: (saved) => {
      queryClient.setQueryData(['invoice', id], saved);
      refresh();
    },
  });
  const files = useMutation({ mutationFn: ({ path, name }: { path: string; name: string }) => download(path, name) });
  // A phone's browser shows an embedded PDF as an empty box: there the PDF opens in its own tab.
  const narrow = useMediaQuery('(max-width: 48em)', undefined, { getInitialValueInEffect: false });
  // 422 from the e-invoice or payment code: the organization lacks its address, tax number or IBAN.
  const missingData = [files.error, code.error].some((e) => e instanceof ApiError && e.status === 422);

  if (query.isPending) return <Loading />;
  if (query.isError || !inv) return <ErrorState error={query.error} retry={() => query.refetch()} />;
  const cur = inv.currencyCode;
  const open = inv.status === 'sent' || inv.status === 'viewed' || inv.status === 'overdue';

  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Group gap="sm">
            <Title order={1} size="h2">
              {inv.invoiceNumber}
            </Title>
            <StatusBadge status={inv.status} />
          </Group>
          <Text>{inv.customerName}</Text>
          <Text size="sm" c="dimmed">
            {t('invoices.date')}: {f.date(inv.invoiceDate)} · {t('invoices.dueDate')}: {f.date(inv.dueDate)}
            {inv.paymentReference ? ` · ${t('invoices.paymentReference')}: ${inv.paymentReference}` : ''}
          </Text>
        </Stack>
        {canWrite ? (
          <Group gap="xs">
            {inv.status === 'draft' ? (
              <>
                <Button variant="default" component={Link} to={`/invoices/${id}/edit`}>
                  {t('app.edit')}
                </Button>
                <Button onClick={() => setSending(true)}>{t('invoices.send')}</Button>
              </>
            ) : null}
            {open ? (
              <Button
                loading={action.isPending && action.variables === 'mark-paid'}
                onClick={() => action.mutate('mark-paid')}
              >
                {t('invoices.markPaid')}
              </Button>
            ) : null}
            <Button variant="default" component={Link} to={`/invoices/new?from=${id}`}>
              {t('invoices.copy')}
            </Button>
            {inv.status !== 'cancelled' ? (
              <Button
                variant="outline"
                color="red.9"
                loading={action.isPending && action.variables === 'cancel'}
                onClick={() => action.mutate('cancel')}
              >
                {t('invoices.cancelInvoice')}
              </Button>
            ) : null}
          </Group>
        ) : null}
      </Group>
      {notice ? (
        <Alert color="teal" role="status">
          {notice}
        </Alert>
      ) : null}
      {action.error ? <ErrorState error={action.error} /> : null}
      {files.error ? <ErrorState error={files.error} /> : null}
      {missingData ? (
        <Alert color="orange" role="status" data-testid="einvoice-hint">
          <Text size="sm">{t('books.einvoice.missing')}</Text>
          <Anchor component={Link} to="/settings" size="sm" fw={700} c="dark.9" underline="always">
            {t('books.einvoice.fix')}
          </Anchor>
        </Alert>
      ) : null}
      <Card withBorder p="xs">
        {narrow ? (
          // A phone: each line stacked (quantity, price and rate under the description, the amount beside).
          <Stack gap={0}>
            {inv.items.map((i, n) => (
              <Group
                key={i.id}
                justify="space-between"
                align="flex-start"
                wrap="nowrap"
                py="xs"
                style={n > 0 ? { borderTop: '1px solid var(--mantine-color-gray-3)' } : undefined}
              >
                <Stack gap={2}>
                  <Text size="sm">{i.description}</Text>
                  <Text size="xs" c="dimmed">
                    {f.number(i.quantity, 2)} × {f.number(i.unitPrice)} · {t('invoices.taxRate')}{' '}
                    {f.number(i.taxRate, 0)} %
                  </Text>
                </Stack>
                <Text size="sm" fw={700} style={{ whiteSpace: 'nowrap' }}>
                  {f.number(i.lineTotal)}
                </Text>
              </Group>
            ))}
          </Stack>
        ) : (
          <ScrollTable minWidth={520} label={t('invoices.lines')}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('invoices.description')}</Table.Th>
                  <Table.Th ta="right">{t('invoices.quantity')}</Table.Th>
                  <Table.Th ta="right">{t('invoices.unitPrice')}</Table.Th>
                  <Table.Th ta="right">{t('invoices.taxRate')}</Table.Th>
                  <Table.Th ta="right">{t('invoices.lineTotal')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {inv.items.map((i) => (
                  <Table.Tr key={i.id}>
                    <Table.Td>{i.description}</Table.Td>
                    <Table.Td ta="right">{f.number(i.quantity, 2)}</Table.Td>
                    <Table.Td ta="right">{f.number(i.unitPrice)}</Table.Td>
                    <Table.Td ta="right">{f.number(i.taxRate, 0)} %</Table.Td>
                    <Table.Td ta="right">{f.number(i.lineTotal)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollTable>
        )}
      </Card>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Card withBorder>
          <Text size="sm" c="dimmed" mb="xs">
            {t('invoices.serverTotals')}
          </Text>
          <TotalRow label={t('invoices.subtotal')} value={f.money(inv.subtotal, cur)} />
          <TotalRow label={t('invoices.tax')} value={f.money(inv.taxAmount, cur)} testId="server-tax" />
          <TotalRow label={t('invoices.discount')} value={f.money(inv.discountAmount, cur)} />
          <TotalRow label={t('invoices.total')} value={f.money(inv.totalAmount, cur)} strong testId="server-total" />
        </Card>
        <Card withBorder>
          <Stack gap="xs">
            <Group gap="xs">
              <Button
                variant="default"
                size="xs"
                onClick={() => files.mutate({ path: `/api/v1/invoices/${id}/pdf`, name: `${inv.invoiceNumber}.pdf` })}
              >
                {t('invoices.download')} {t('invoices.pdf')}
              </Button>
              <Button
                variant="default"
                size="xs"
                onClick={() => files.mutate({ path: `/api/v1/invoices/${id}/ubl`, name: `${inv.invoiceNumber}.xml` })}
              >
                {t('invoices.download')} {t('invoices.ubl')}
              </Button>
              {hasPaymentCode ? (
                <Button
                  variant="default"
                  size="xs"
                  onClick={() =>
                    files.mutate({ path: `/api/v1/invoices/${id}/payment-code`, name: `${inv.invoiceNumber}.png` })
                  }
                >
                  {t('invoices.download')} {paymentCode}
                </Button>
              ) : null}
            </Group>
            {code.data ? <Image src={code.data.url} alt={paymentCode} w={160} /> : null}
            <Text size="sm">
              <strong>{t('invoices.publicLink')}:</strong> {t('invoices.publicLinkHelp')}
            </Text>
          </Stack>
        </Card>
      </SimpleGrid>
      <InvoiceEinvoice id={id} invoiceStatus={inv.status} currency={inv.currencyCode} />
      {hasPdf ? (
        <Card withBorder p={0}>
          {pdf.isPending ? (
            <Loading />
          ) : pdf.error ? (
            <ErrorState error={pdf.error} retry={() => pdf.refetch()} />
          ) : pdf.data && narrow ? (
            <Group p="md">
              <Button component="a" href={pdf.data.url} target="_blank" rel="noopener" variant="default">
                {t('books.pdf.open')}
              </Button>
            </Group>
          ) : pdf.data ? (
            <iframe
              title={`${t('invoices.pdf')} ${inv.invoiceNumber}`}
              src={pdf.data.url}
              style={{ width: '100%', height: 640, border: 0 }}
            />
          ) : null}
        </Card>
      ) : null}
      <Anchor component={Link} to="/invoices">
        ← {t('invoices.title')}
      </Anchor>
      {sending ? (
        <SendDialog
          id={id}
          onClose={() => setSending(false)}
          onSent={(to) => {
            setSending(false);
            setNotice(t('invoices.sent', { to }));
            refresh();
          }}
        />
      ) : null}
    </Stack>
  );
}

function SendDialog({ id, onClose, onSent }: { id: string; onClose: () => void; onSent: (to: string) => void }) {
  const { t } = useI18n();
  const [to, setTo] = useState('');
  const send = useMutation({
    mutationFn: async () =>
      unwrap(await api.POST('/api/v1/invoices/{id}/send', { params: { path: { id } }, body: to ? { to } : {} })),
    onSuccess: (r) => onSent(r.sentTo),
  });
  return (
    <Modal opened onClose={onClose} title={t('invoices.send')} closeButtonProps={{ 'aria-label': t('app.close') }}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          send.mutate();
        }}
      >
        <Stack>
          <TextInput
            label={t('invoices.sendTo')}
            type="email"
            value={to}
            onChange={(e) => setTo(e.currentTarget.value)}
          />
          {send.error ? <ErrorState error={send.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('app.cancel')}
            </Button>
            <Button type="submit" loading={send.isPending}>
              {t('invoices.send')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
