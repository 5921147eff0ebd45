import { Alert, Button, Card, FileButton, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { type UseQueryResult, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ApiError, api, newIdempotencyKey, unwrap } from '../api/client.js';
import { useI18n } from '../i18n/index.js';
import { parseTypedAmount } from '../lib/amount.js';
import { decodeQr, merchantIdOf, pixelsOf } from '../lib/qr.js';
import { Disclosure, type DisclosureData } from '../ui/Disclosure.js';
import { money } from '../ui/format.js';
import { PAYMENT_KEYS } from '../ui/queries.js';
import { ErrorState } from '../ui/states.js';

/**
 * Pay a merchant by QR: scan with the camera where the browser allows it, else upload a picture of
 * the code or paste its value; the shop the code names is shown by its business name before anything
 * else (a code of no shop, or of the payer's own, stops there); then the amount, the disclosure (1 %
 * fee paid by the payer) and the confirmation with one Idempotency-Key (R9, R12).
 */
export default function Pay() {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const [value, setValue] = useState('');
  const [amount, setAmount] = useState('');
  const [scanError, setScanError] = useState<string | null>(null);
  const [camera, setCamera] = useState(false);
  const [review, setReview] = useState<{ merchantId: string; amount: number; d: DisclosureData } | null>(null);
  const key = useRef<string | null>(null);
  const merchantId = merchantIdOf(value);
  // A code typed by hand is well formed from its fourth character on: the shop is looked up once the
  // typing pauses, not at every key (a pasted or scanned code waits the same 300 ms).
  const [lookup] = useDebouncedValue(merchantId, 300);
  const typed = parseTypedAmount(amount);
  const payee = useQuery({
    queryKey: ['payee', lookup],
    enabled: lookup !== null && lookup === merchantId,
    queryFn: async () =>
      unwrap(await api.GET('/api/merchants/{merchantId}', { params: { path: { merchantId: lookup ?? '' } } })).data,
  });
  const payable = merchantId !== null && payee.data?.merchantId === merchantId && !payee.data.own;

  const disclose = useMutation({
    mutationFn: async () => {
      if (!merchantId || !typed || !payable) throw new Error('incomplete');
      const d = unwrap(await api.POST('/api/transactions/disclosure', { body: { type: 'qr_payment', amount: typed } }));
      return { merchantId, amount: typed, d };
    },
    onSuccess: (r) => {
      key.current = newIdempotencyKey();
      setReview(r);
    },
  });
  const pay = useMutation({
    mutationFn: async () => {
      if (!review || !key.current) throw new Error('nothing to confirm');
      return unwrap(
        await api.POST('/api/transactions/qr-payment', {
          params: { header: { 'idempotency-key': key.current } },
          body: { merchantId: review.merchantId, amount: review.amount },
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

  const onFile = async (file: File | null) => {
    setScanError(null);
    if (!file) return;
    try {
      const text = await decodeQr(await pixelsOf(file));
      if (text && merchantIdOf(text)) setValue(text);
      else setScanError(t('pay.noCode'));
    } catch {
      setScanError(t('pay.noCode'));
    }
  };

  if (pay.data)
    return (
      <Stack gap="md" maw={560}>
        <Alert color="teal" title={t('pay.done')} role="status">
          {t('pay.doneBody', {
            amount: money(pay.data.amount, pay.data.currency, locale),
            name: pay.data.merchantName,
          })}
        </Alert>
        <Group>
          <Button component={Link} to={`/history/${pay.data.id}`}>
            {t('history.receipt')}
          </Button>
          <Button component={Link} to="/dashboard" variant="default">
            {t('nav.dashboard')}
          </Button>
        </Group>
      </Stack>
    );

  return (
    <Stack gap="md" maw={560}>
      <Title order={1} size="h2">
        {t('pay.title')}
      </Title>
      {!review ? (
        <>
          <Text size="sm">{t('pay.lead')}</Text>
          <Group>
            {'mediaDevices' in navigator ? (
              <Button variant="default" onClick={() => setCamera((c) => !c)}>
                {camera ? t('pay.stopCamera') : t('pay.camera')}
              </Button>
            ) : null}
            <FileButton onChange={onFile} accept="image/*">
              {(props) => (
                <Button variant="default" {...props}>
                  {t('pay.upload')}
                </Button>
              )}
            </FileButton>
          </Group>
          {camera ? (
            <CameraScanner
              onCode={(text) => {
                setValue(text);
                setCamera(false);
              }}
              onError={() => {
                setCamera(false);
                setScanError(t('pay.cameraBlocked'));
              }}
            />
          ) : null}
          {scanError ? (
            <Alert color="yellow" role="alert">
              {scanError}
            </Alert>
          ) : null}
          <TextInput
            label={t('pay.value')}
            description={t('pay.valueHint')}
            value={value}
            onChange={(e) => setValue(e.currentTarget.value)}
            error={value && !merchantId ? t('pay.badValue') : undefined}
            autoComplete="off"
            // A code (a link or an id) reads left to right in every language, Urdu's screen included:
            // its direction and its alignment (Mantine right-aligns every input under dir="rtl").
            dir="ltr"
            styles={{ input: { textAlign: 'left' } }}
          />
          {merchantId ? (
            lookup === merchantId ? (
              <PayeeState query={payee} />
            ) : (
              // The code changed and its look-up waits for the typing to pause: not the previous shop's name.
              <Text size="sm">{t('pay.lookingUp')}</Text>
            )
          ) : null}
          <TextInput
            label={t('send.amount')}
            description={t('send.amountHint')}
            inputMode="decimal"
            value={amount}
            onChange={(e) => setAmount(e.currentTarget.value)}
            error={amount && !(typed && typed > 0) ? t('send.badAmount') : undefined}
            autoComplete="off"
          />
          {disclose.error ? <ErrorState error={disclose.error} /> : null}
          <Button onClick={() => disclose.mutate()} disabled={!payable || !typed} loading={disclose.isPending}>
            {t('send.review')}
          </Button>
        </>
      ) : (
        <Card withBorder>
          <Stack gap="sm">
            <Title order={2} size="h4">
              {t('disclosure.title')}
            </Title>
            <Disclosure d={review.d} payee={payee.data?.businessName ?? ''} />
            {pay.error ? <ErrorState error={pay.error} /> : null}
            <Group>
              <Button onClick={() => pay.mutate()} loading={pay.isPending} data-testid="confirm-pay">
                {t('send.confirm', { total: money(review.d.totalCost, 'NOK', locale) })}
              </Button>
              <Button variant="default" onClick={() => setReview(null)} disabled={pay.isPending}>
                {t('app.back')}
              </Button>
            </Group>
          </Stack>
        </Card>
      )}
    </Stack>
  );
}

type PayeeQuery = UseQueryResult<{ merchantId: string; businessName: string; own: boolean }>;

/** The shop a code names, by its business name, or why it cannot be paid. */
function PayeeState({ query }: { query: PayeeQuery }) {
  const { t } = useI18n();
  if (query.isPending) return <Text size="sm">{t('pay.lookingUp')}</Text>;
  if (query.error) {
    if (query.error instanceof ApiError && query.error.status === 404)
      return (
        <Alert color="yellow" role="alert">
          {t('pay.unknown')}
        </Alert>
      );
    return <ErrorState error={query.error} />;
  }
  if (query.data.own)
    return (
      <Alert color="yellow" role="alert">
        {t('pay.own')}
      </Alert>
    );
  return (
    <Card withBorder padding="sm" data-testid="payee">
      <Text size="sm" c="dimmed">
        {t('pay.payee')}
      </Text>
      <Text fw={700} size="lg" style={{ overflowWrap: 'anywhere' }}>
        {query.data.businessName}
      </Text>
    </Card>
  );
}

/** The rear camera's picture, read a few times a second until a merchant code shows. */
function CameraScanner({ onCode, onError }: { onCode: (text: string) => void; onError: () => void }) {
  const { t } = useI18n();
  const video = useRef<HTMLVideoElement>(null);
  // The page passes new callbacks on every render: kept in a ref, so a render of the page while
  // scanning does not stop and restart the camera.
  const handlers = useRef({ onCode, onError });
  handlers.current = { onCode, onError };
  useEffect(() => {
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setInterval> | undefined;
    let stopped = false;
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: 'environment' } })
      .then((s) => {
        stream = s;
        if (stopped || !video.current) return;
        video.current.srcObject = s;
        void video.current.play();
        const canvas = document.createElement('canvas');
        timer = setInterval(async () => {
          const v = video.current;
          if (!v?.videoWidth) return;
          canvas.width = v.videoWidth;
          canvas.height = v.videoHeight;
          const ctx = canvas.getContext('2d');
          if (!ctx) return;
          ctx.drawImage(v, 0, 0);
          const text = await decodeQr(ctx.getImageData(0, 0, canvas.width, canvas.height));
          if (text && merchantIdOf(text)) handlers.current.onCode(text);
        }, 400);
      })
      .catch(() => handlers.current.onError());
    return () => {
      stopped = true;
      clearInterval(timer);
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, []);
  return <video ref={video} aria-label={t('pay.camera')} muted playsInline style={{ width: '100%', maxHeight: 320 }} />;
}
