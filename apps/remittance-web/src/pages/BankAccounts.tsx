import { Alert, Badge, Button, Card, Group, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ApiError, api, unwrap } from '../api/client.js';
import { useAuth } from '../auth.js';
import { type MessageKey, useI18n } from '../i18n/index.js';
import { type ConsentAction, rememberConsentAction, takeConsentAction } from '../lib/resume.js';
import { ago, date, money } from '../ui/format.js';
import { useBankAccounts } from '../ui/queries.js';
import { Empty, ErrorState, QueryView } from '../ui/states.js';

/** Open-banking providers by name, for a consent no account names the bank of (refused, pending). */
const PROVIDERS: Record<string, string> = { enablebanking: 'Enable Banking', sandbox: 'Sandbox' };

/**
 * Linked banks (R8): link through the bank's consent page (sandbox in development), which returns
 * here; each account with its balance, when it was read and the consent's expiry; refresh a balance,
 * choose the primary account, revoke a consent.
 */
export default function BankAccounts() {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const accounts = useBankAccounts();
  const consents = useQuery({
    queryKey: ['consents-ob'],
    queryFn: async () => unwrap(await api.GET('/api/open-banking/consents')).data,
  });
  const [warning, setWarning] = useState<string | null>(null);
  // The bank's consent page comes back here (R8) with `error` when the consent was refused or failed.
  const [params, setParams] = useSearchParams();
  const returnedConsent = params.get('consentId');
  const returned = returnedConsent ? (params.get('error') ?? 'linked') : null;
  // The banner answers the return from the bank; the next action on the page (a balance read that finds
  // the consent refused, say) would contradict it, so it goes with the first one.
  const settleReturn = () => {
    if (returnedConsent) setParams({}, { replace: true });
  };
  const refreshAll = () => {
    for (const key of [['bank-accounts'], ['consents-ob']]) queryClient.invalidateQueries({ queryKey: key });
  };

  // Renewing, or linking again, needs a recent eID sign-in (403 reauthentication_required): the
  // action is remembered, the user signs in with eID and comes back here, where it proceeds (once).
  const { signIn } = useAuth();
  const resumed = useRef(false);
  const [signingIn, setSigningIn] = useState(false);
  const stepUp = (action: ConsentAction) => (err: Error) => {
    if (resumed.current || !(err instanceof ApiError) || err.code !== 'reauthentication_required') return;
    rememberConsentAction(action);
    setSigningIn(true);
    void signIn();
  };
  type Bank = { name: string; country: string };
  const link = useMutation({
    mutationFn: async (bank: Bank | undefined) =>
      unwrap(await api.POST('/api/open-banking/consents', { body: { scope: 'AISP+PISP', ...(bank ? { bank } : {}) } }))
        .data,
    onMutate: settleReturn,
    onSuccess: ({ redirectUrl }) => location.assign(redirectUrl),
    onError: (err, bank) => stepUp({ action: 'link', bank })(err),
  });
  // The bank chooser: the banks the service can link (GET /open-banking/banks), read when it opens.
  // With one bank only (the sandbox) there is nothing to choose: Link goes straight to it.
  const [choosing, setChoosing] = useState(false);
  const [search, setSearch] = useState('');
  const banks = useQuery({
    queryKey: ['ob-banks'],
    queryFn: async () =>
      unwrap(await api.GET('/api/open-banking/banks', { params: { query: { country: 'NO' } } })).data,
    staleTime: 10 * 60_000,
  });
  const startLink = () => {
    const list = banks.data;
    if (list?.length === 1) link.mutate({ name: list[0].name, country: list[0].country });
    else setChoosing(true);
  };
  const needle = search.trim().toLocaleLowerCase(locale);
  const shown = (banks.data ?? []).filter((b) => b.name.toLocaleLowerCase(locale).includes(needle));
  const refresh = useMutation({
    mutationFn: async (id: string) =>
      unwrap(await api.POST('/api/bank-accounts/{id}/refresh', { params: { path: { id } } })),
    onMutate: settleReturn,
    onSuccess: (r) => {
      // A consent the bank no longer accepts gets its own notice with Renew (below), not the warning too.
      setWarning(r.data.reauthorizationRequired ? null : (r.warning ?? null));
      refreshAll();
    },
  });
  const primary = useMutation({
    mutationFn: async (id: string) =>
      unwrap(await api.POST('/api/bank-accounts/{id}/primary', { params: { path: { id } } })),
    onMutate: settleReturn,
    onSuccess: refreshAll,
  });
  // Renewal (issue 30): a new authorization at the same bank; its callback returns here with the
  // consent replaced and the same accounts.
  const renew = useMutation({
    mutationFn: async (id: string) =>
      unwrap(await api.POST('/api/open-banking/consents/{id}/renew', { params: { path: { id } } })).data,
    onMutate: settleReturn,
    onSuccess: ({ redirectUrl }) => location.assign(redirectUrl),
    onError: (err, id) => stepUp({ action: 'renew', consentId: id })(err),
  });
  // Back from that sign-in: carry out the remembered action.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on arrival
  useEffect(() => {
    const action = takeConsentAction();
    if (!action) return;
    resumed.current = true;
    if (action.action === 'renew') renew.mutate(action.consentId);
    else link.mutate(action.bank);
  }, []);
  const revoke = useMutation({
    mutationFn: async (id: string) =>
      unwrap(await api.DELETE('/api/open-banking/consents/{id}', { params: { path: { id } } })),
    onMutate: settleReturn,
    onSuccess: refreshAll,
  });
  const failure = signingIn ? null : (link.error ?? refresh.error ?? primary.error ?? revoke.error ?? renew.error);
  const renewButton = (consentId: string) => (
    <Button
      size="xs"
      onClick={() => renew.mutate(consentId)}
      loading={(renew.isPending || renew.isSuccess || signingIn) && renew.variables === consentId}
    >
      {t('banks.renew')}
    </Button>
  );
  // One notice per consent needing the user: expired or refused by the bank, or expiring soon.
  const notices = new Map<
    string,
    { bank: string; kind: 'reauthorization' | 'expiresSoon'; expiresAt: string | null }
  >();
  // The bank each consent is with: its accounts name it; a consent replaced by its renewal has none left
  // (they moved), so it takes its successor's.
  const bankOf = new Map<string, string>();
  for (const a of accounts.data?.data ?? []) if (!bankOf.has(a.consentId)) bankOf.set(a.consentId, a.bankName);
  const consentList = consents.data ?? [];
  for (let named = true; named; ) {
    named = false;
    for (const c of consentList) {
      const bank = bankOf.get(c.id);
      if (bank && c.renewsConsentId && !bankOf.has(c.renewsConsentId)) {
        bankOf.set(c.renewsConsentId, bank);
        named = true;
      }
    }
  }
  for (const a of accounts.data?.data ?? []) {
    const needs = a.reauthorizationRequired || a.consentStatus === 'expired';
    if ((needs || a.renewalDue) && !notices.has(a.consentId))
      notices.set(a.consentId, {
        bank: a.bankName,
        kind: needs ? 'reauthorization' : 'expiresSoon',
        expiresAt: a.consentExpiresAt,
      });
  }

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('banks.title')}
        </Title>
        <Button
          onClick={startLink}
          loading={link.isPending || link.isSuccess || (signingIn && link.isError) || banks.isPending}
        >
          {t('banks.link')}
        </Button>
      </Group>
      <Modal
        opened={choosing}
        onClose={() => setChoosing(false)}
        title={<Text fw={700}>{t('banks.choose.title')}</Text>}
        closeButtonProps={{ 'aria-label': t('banks.choose.close') }}
        size="md"
      >
        <Stack gap="sm">
          <Text size="sm">{t('banks.choose.lead')}</Text>
          {(banks.data?.length ?? 0) > 6 ? (
            <TextInput
              label={t('banks.choose.search')}
              value={search}
              onChange={(e) => setSearch(e.currentTarget.value)}
              data-autofocus
            />
          ) : null}
          {banks.isError ? <ErrorState error={banks.error} retry={() => banks.refetch()} /> : null}
          {banks.data && shown.length === 0 ? <Empty>{t('banks.choose.none')}</Empty> : null}
          <Stack
            component="ul"
            gap={6}
            aria-label={t('banks.choose.title')}
            style={{ listStyle: 'none', margin: 0, padding: 0 }}
          >
            {shown.map((b) => (
              <li key={`${b.country}/${b.name}`}>
                <Button
                  variant="default"
                  fullWidth
                  justify="space-between"
                  rightSection={
                    b.beta ? (
                      <Badge size="xs" variant="outline" color="gray.8">
                        {t('banks.choose.beta')}
                      </Badge>
                    ) : null
                  }
                  loading={link.isPending && link.variables?.name === b.name}
                  onClick={() => link.mutate({ name: b.name, country: b.country })}
                >
                  {b.name}
                </Button>
              </li>
            ))}
          </Stack>
          {link.error && choosing ? <ErrorState error={link.error} /> : null}
        </Stack>
      </Modal>
      <Text size="sm">{t('banks.lead')}</Text>
      {returned === 'linked' && notices.get(returnedConsent!)?.kind !== 'reauthorization' ? (
        <Alert color="teal" role="status">
          {t('banks.linked')}
        </Alert>
      ) : returned ? (
        <Alert color="red" role="alert">
          {t(returned === 'consent_denied' ? 'banks.denied' : 'banks.failed')}
        </Alert>
      ) : null}
      {failure ? <ErrorState error={failure} /> : null}
      {warning ? <Alert color="yellow">{warning}</Alert> : null}
      {[...notices].map(([consentId, n]) => (
        <Alert
          key={consentId}
          color={n.kind === 'reauthorization' ? 'red' : 'yellow'}
          role="status"
          title={t(n.kind === 'reauthorization' ? 'banks.reauthorization' : 'banks.expiresSoon')}
        >
          <Stack gap="xs" align="flex-start">
            <Text size="sm">
              {n.kind === 'reauthorization'
                ? t('banks.reauthorizationLead', { bank: n.bank })
                : t('banks.expiresSoonLead', { bank: n.bank, date: n.expiresAt ? date(n.expiresAt, locale) : '' })}
            </Text>
            {renewButton(consentId)}
          </Stack>
        </Alert>
      ))}
      <QueryView query={accounts}>
        {({ data }) =>
          data.length === 0 ? (
            <Empty>{t('banks.none')}</Empty>
          ) : (
            <Stack gap="sm">
              {data.map((a) => (
                <Card withBorder key={a.id} padding="sm">
                  <Group justify="space-between" align="flex-start">
                    <div>
                      <Text fw={600}>
                        {a.accountName ?? a.bankName}{' '}
                        {a.isPrimary ? (
                          <Badge size="sm" color="teal.9">
                            {t('banks.primary')}
                          </Badge>
                        ) : null}{' '}
                        {a.reauthorizationRequired || a.consentStatus === 'expired' ? (
                          <Badge size="sm" color="red.9">
                            {t('banks.reauthorization')}
                          </Badge>
                        ) : a.renewalDue ? (
                          <Badge size="sm" color="yellow.4" autoContrast>
                            {t('banks.expiresSoon')}
                          </Badge>
                        ) : null}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {a.bankName} · {a.accountNumber}
                      </Text>
                      {a.consentExpiresAt && !a.reauthorizationRequired ? (
                        <Text size="xs" c="dimmed">
                          {t('banks.consentUntil', { date: date(a.consentExpiresAt, locale) })}
                        </Text>
                      ) : null}
                    </div>
                    <div style={{ textAlign: 'end' }}>
                      <Text fw={700} style={{ whiteSpace: 'nowrap' }}>
                        {money(a.balance, a.currency, locale)}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {a.reauthorizationRequired
                          ? t('banks.staleRefused')
                          : a.stale
                            ? t('banks.stale')
                            : t('banks.readAgo', { when: ago(a.balanceUpdatedAt, locale) })}
                      </Text>
                    </div>
                  </Group>
                  <Group gap="xs" mt="xs">
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() => refresh.mutate(a.id)}
                      loading={refresh.isPending && refresh.variables === a.id}
                    >
                      {t('banks.refresh')}
                    </Button>
                    {!a.isPrimary ? (
                      <Button size="xs" variant="default" onClick={() => primary.mutate(a.id)}>
                        {t('banks.makePrimary')}
                      </Button>
                    ) : null}
                  </Group>
                </Card>
              ))}
            </Stack>
          )
        }
      </QueryView>
      <section aria-labelledby="consents">
        <Title order={2} size="h4" id="consents" mb="xs">
          {t('banks.consents')}
        </Title>
        <QueryView query={consents}>
          {(list) => {
            // A consent replaced by its renewal reads "renewed", not "revoked".
            const renewedIds = new Set(list.map((c) => c.renewsConsentId).filter(Boolean));
            return list.length === 0 ? (
              <Empty>{t('banks.noConsents')}</Empty>
            ) : (
              <Stack gap="xs">
                {list.map((c) => (
                  <Group key={c.id} justify="space-between">
                    <Text size="sm">
                      {bankOf.get(c.id) ?? c.bank?.name ?? PROVIDERS[c.provider] ?? c.provider} ·{' '}
                      {c.reauthorizationRequired
                        ? t('banks.reauthorization')
                        : renewedIds.has(c.id)
                          ? t('banks.renewedConsent')
                          : t(`consent.${c.status}` as MessageKey)}
                      {c.expiresAt && c.status === 'active' && !c.reauthorizationRequired
                        ? ` · ${t('banks.consentUntil', { date: date(c.expiresAt, locale) })}`
                        : c.grantedAt
                          ? ` · ${t('banks.consentGranted', { date: date(c.grantedAt, locale) })}`
                          : ''}
                    </Text>
                    <Group gap="xs">
                      {c.reauthorizationRequired || c.renewalDue || c.status === 'expired' ? renewButton(c.id) : null}
                      {c.status === 'active' ? (
                        <Button size="xs" variant="default" c="red.9" onClick={() => revoke.mutate(c.id)}>
                          {t('banks.revoke')}
                        </Button>
                      ) : null}
                    </Group>
                  </Group>
                ))}
              </Stack>
            );
          }}
        </QueryView>
      </section>
    </Stack>
  );
}
