import {
  Anchor,
  Button,
  Card,
  Group,
  Image,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { ApiError, api, fetchBlob, type paths, unwrap } from '../api/client.js';
import { useI18n } from '../i18n/index.js';
import { dateTime, money } from '../ui/format.js';
import { Empty, ErrorState, Loading, QueryView } from '../ui/states.js';

type RegisterBody = paths['/api/merchants/register']['post']['requestBody']['content']['application/json'];
type Period = 'today' | 'week' | 'month';

/** The merchant area: register a business, then its figures, its QR code (PNG, SVG, print) and payments. */
export default function Merchant() {
  const { t } = useI18n();
  const qr = useQuery({
    queryKey: ['merchant-qr'],
    queryFn: async () => {
      const r = await api.GET('/api/merchants/qr');
      // Not a merchant yet (403 "merchant role required"): the register form.
      if (r.response.status === 403 || r.response.status === 404) return null;
      return unwrap(r).data;
    },
  });
  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        {t('nav.merchant')}
      </Title>
      <QueryView query={{ ...qr, data: qr.data === undefined ? undefined : { m: qr.data } }}>
        {({ m }) => (m ? <MerchantHome merchant={m} /> : <RegisterMerchant />)}
      </QueryView>
    </Stack>
  );
}

function RegisterMerchant() {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const form = useForm<RegisterBody>({
    defaultValues: { businessName: '', orgNumber: '', address: '', bankAccount: '' },
  });
  const register = useMutation({
    mutationFn: async (v: RegisterBody) =>
      unwrap(
        await api.POST('/api/merchants/register', {
          body: { ...v, orgNumber: v.orgNumber.replace(/\s/g, ''), ...(v.address ? {} : { address: undefined }) },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['merchant-qr'] }),
    onError: (e) => {
      if (e instanceof ApiError)
        for (const d of e.details)
          if (d.field === 'orgNumber' || d.field === 'bankAccount' || d.field === 'businessName')
            form.setError(d.field, { message: t('merchant.invalid') });
    },
  });
  const { errors } = form.formState;
  return (
    <Card withBorder maw={560}>
      <form onSubmit={form.handleSubmit((v) => register.mutate(v))} noValidate>
        <Stack gap="sm">
          <Text>{t('merchant.lead')}</Text>
          <TextInput
            label={t('merchant.businessName')}
            required
            error={errors.businessName?.message}
            {...form.register('businessName', { required: t('recipients.required') })}
          />
          <TextInput
            label={t('merchant.orgNumber')}
            description={t('merchant.orgNumberHint')}
            required
            inputMode="numeric"
            error={errors.orgNumber?.message}
            {...form.register('orgNumber', {
              validate: (v) => /^\d{9}$/.test(v.replace(/\s/g, '')) || t('merchant.invalid'),
            })}
          />
          <TextInput label={t('merchant.address')} {...form.register('address')} />
          <TextInput
            label={t('merchant.bankAccount')}
            required
            error={errors.bankAccount?.message}
            {...form.register('bankAccount', { required: t('recipients.required') })}
          />
          {register.error && !(register.error instanceof ApiError && register.error.details.length) ? (
            <ErrorState error={register.error} />
          ) : null}
          <Button type="submit" loading={register.isPending}>
            {t('merchant.register')}
          </Button>
        </Stack>
      </form>
    </Card>
  );
}

function MerchantHome({ merchant }: { merchant: { businessName: string; qrValue: string; address: string | null } }) {
  const { t, locale } = useI18n();
  const [period, setPeriod] = useState<Period>('today');
  const figures = useQuery({
    queryKey: ['merchant-dashboard', period],
    queryFn: async () => unwrap(await api.GET('/api/merchants/dashboard', { params: { query: { period } } })).data,
  });
  const payments = useQuery({
    queryKey: ['merchant-transactions'],
    queryFn: async () =>
      unwrap(await api.GET('/api/merchants/transactions', { params: { query: { limit: 20 } } })).data,
    refetchInterval: 10_000,
  });
  return (
    <Stack gap="lg">
      <Text fw={600}>{merchant.businessName}</Text>
      <SegmentedControl
        value={period}
        onChange={(v) => setPeriod(v as Period)}
        data={[
          { value: 'today', label: t('merchant.today') },
          { value: 'week', label: t('merchant.week') },
          { value: 'month', label: t('merchant.month') },
        ]}
        aria-label={t('merchant.period')}
      />
      <QueryView query={figures}>
        {(f) => (
          <SimpleGrid cols={{ base: 2, md: 4 }}>
            <Figure label={t('merchant.revenue')} value={money(f.revenue, 'NOK', locale)} />
            <Figure label={t('merchant.count')} value={String(f.transactionCount)} />
            <Figure label={t('merchant.fees')} value={money(f.fees, 'NOK', locale)} />
            <Figure
              label={t('merchant.nextPayout', { when: dateTime(f.payoutTime, locale) })}
              value={money(f.nextPayout, 'NOK', locale)}
            />
          </SimpleGrid>
        )}
      </QueryView>
      <QrCard value={merchant.qrValue} name={merchant.businessName} />
      <section aria-labelledby="mpayments">
        <Title order={2} size="h4" id="mpayments" mb="xs">
          {t('merchant.payments')}
        </Title>
        <QueryView query={payments}>
          {(rows) =>
            rows.length === 0 ? (
              <Empty>{t('merchant.noPayments')}</Empty>
            ) : (
              <Stack gap={4} data-testid="merchant-payments">
                {rows.map((r) => (
                  <Group key={r.id} justify="space-between" wrap="nowrap">
                    <div>
                      <Text size="sm" fw={600}>
                        {r.customerName}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {dateTime(r.createdAt, locale)}
                      </Text>
                    </div>
                    <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                      {money(r.amount, r.currency, locale)}
                    </Text>
                  </Group>
                ))}
              </Stack>
            )
          }
        </QueryView>
      </section>
    </Stack>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Card withBorder padding="sm">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} style={{ whiteSpace: 'nowrap' }}>
        {value}
      </Text>
    </Card>
  );
}

/** The merchant's QR code as the service renders it; PNG and SVG downloads and a print button. */
function QrCard({ value, name }: { value: string; name: string }) {
  const { t } = useI18n();
  const png = useQuery({ queryKey: ['merchant-qr-png'], queryFn: () => fetchBlob('/api/merchants/qr.png') });
  const svg = useQuery({ queryKey: ['merchant-qr-svg'], queryFn: () => fetchBlob('/api/merchants/qr.svg') });
  useEffect(() => () => png.data && URL.revokeObjectURL(png.data.url), [png.data]);
  return (
    <Card withBorder maw={360} className="printable-qr">
      <Stack gap="xs" align="center">
        <Text fw={600}>{t('merchant.qr')}</Text>
        {png.isPending ? (
          <Loading />
        ) : png.data ? (
          <Image src={png.data.url} alt={t('merchant.qrAlt', { name })} w={240} h={240} />
        ) : (
          <ErrorState error={png.error} />
        )}
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }} data-testid="qr-value">
          {value}
        </Text>
        <Group gap="xs">
          {png.data ? (
            <Anchor href={png.data.url} download="merchant-qr.png" size="sm">
              PNG
            </Anchor>
          ) : null}
          {svg.data ? (
            <Anchor href={svg.data.url} download="merchant-qr.svg" size="sm">
              SVG
            </Anchor>
          ) : null}
          <Button size="xs" variant="default" onClick={() => window.print()}>
            {t('merchant.print')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
