import { Alert, Badge, Button, Card, Code, Group, Image, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import QRCode from 'qrcode';
import { useState } from 'react';
import { api, unwrap } from '../../api/client.js';
import { useAuth } from '../../auth.js';
import { useI18n } from '../../i18n/index.js';
import { ErrorState } from '../../ui/states.js';

/** Two-factor sign-in: a QR code of the otpauth URL to scan, the secret to type, and a code to confirm. */
export default function Security() {
  const { t } = useI18n();
  const { me } = useAuth();
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const setup = useMutation({
    mutationFn: async () => {
      const s = unwrap(await api.POST('/api/v1/auth/2fa/setup'));
      const qr = await QRCode.toDataURL(s.otpauthUrl, { margin: 2, width: 220, errorCorrectionLevel: 'M' });
      return { ...s, qr };
    },
  });
  const confirm = useMutation({
    mutationFn: async (action: 'enable' | 'disable') =>
      unwrap(
        await (action === 'enable'
          ? api.POST('/api/v1/auth/2fa/enable', { body: { code } })
          : api.POST('/api/v1/auth/2fa/disable', { body: { code } })),
      ),
    onSuccess: () => {
      setCode('');
      setup.reset();
      queryClient.invalidateQueries({ queryKey: ['me'] });
    },
  });
  const enabled = me?.twoFactorEnabled ?? false;
  const codeField = (
    <TextInput
      label={t('auth.code')}
      description={t('auth.codeHelp')}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      value={code}
      onChange={(e) => setCode(e.currentTarget.value.replace(/\D/g, ''))}
      w={{ base: '100%', xs: 280 }}
    />
  );
  return (
    <Card withBorder>
      <Stack>
        <Group gap="sm">
          <Title order={2} size="h4">
            {t('books.2fa.title')}
          </Title>
          <Badge color={enabled ? 'teal.9' : 'gray.7'} variant="filled">
            {enabled ? t('books.2fa.on') : t('books.2fa.off')}
          </Badge>
        </Group>
        <Text size="sm">{t('books.2fa.help')}</Text>
        {confirm.isSuccess ? (
          <Alert color="teal" role="status">
            {confirm.data.twoFactorEnabled ? t('books.2fa.enabled') : t('books.2fa.disabled')}
          </Alert>
        ) : null}
        {enabled ? (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              confirm.mutate('disable');
            }}
          >
            <Stack align="flex-start">
              {codeField}
              <Button type="submit" color="red.9" variant="outline" loading={confirm.isPending}>
                {t('books.2fa.disable')}
              </Button>
            </Stack>
          </form>
        ) : setup.data ? (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              confirm.mutate('enable');
            }}
          >
            <Stack align="flex-start">
              <Text size="sm">{t('books.2fa.scan')}</Text>
              <Image src={setup.data.qr} alt={t('books.2fa.qr')} w={220} h={220} data-testid="totp-qr" />
              <Text size="sm">{t('books.2fa.manual')}</Text>
              <Code style={{ overflowWrap: 'anywhere' }} data-testid="totp-secret">
                {setup.data.secret}
              </Code>
              {codeField}
              <Button type="submit" loading={confirm.isPending}>
                {t('books.2fa.confirm')}
              </Button>
            </Stack>
          </form>
        ) : (
          <Group>
            <Button onClick={() => setup.mutate()} loading={setup.isPending}>
              {t('books.2fa.start')}
            </Button>
          </Group>
        )}
        {setup.error ? <ErrorState error={setup.error} /> : null}
        {confirm.error ? <ErrorState error={confirm.error} /> : null}
      </Stack>
    </Card>
  );
}
