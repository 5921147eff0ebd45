import { Stack, Tabs, Title } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useAuth } from '../../auth.js';
import { type MessageKey, useI18n } from '../../i18n/index.js';
import { Loading } from '../../ui/states.js';

const Organization = lazy(() => import('../Settings.js'));
const Users = lazy(() => import('./Users.js'));
const TaxRates = lazy(() => import('./TaxRates.js'));
const Currencies = lazy(() => import('./Currencies.js'));
const Security = lazy(() => import('./Security.js'));
const AuditLog = lazy(() => import('./AuditLog.js'));
const Einvoicing = lazy(() => import('./Einvoicing.js'));

const TABS: Array<{ value: string; key: MessageKey; admin?: boolean; countries?: readonly string[] }> = [
  { value: 'organization', key: 'books.settings.organization' },
  { value: 'users', key: 'books.settings.users', admin: true },
  { value: 'tax-rates', key: 'books.settings.taxRates' },
  { value: 'currencies', key: 'books.settings.currencies' },
  { value: 'security', key: 'books.settings.security' },
  { value: 'audit', key: 'books.settings.audit', admin: true },
  // E-invoice delivery: SEF (RS) and fiscalization (HR); every role sees it, the API decides who changes it.
  { value: 'einvoicing', key: 'einvoice.settingsTab', countries: ['RS', 'HR'] },
];

/** Settings: one tab per area; the users and audit-log tabs only for owners and admins (the API's roles). */
export default function SettingsHub() {
  const { tab = 'organization' } = useParams();
  const { t } = useI18n();
  const { isAdmin, me } = useAuth();
  const navigate = useNavigate();
  const country = me?.organization.country ?? '';
  const tabs = TABS.filter((x) => (isAdmin || !x.admin) && (!x.countries || x.countries.includes(country)));
  const current = tabs.some((x) => x.value === tab) ? tab : 'organization';
  return (
    <Stack>
      <Title order={1} size="h2">
        {t('nav.settings')}
      </Title>
      <Tabs value={current} onChange={(v) => v && navigate(v === 'organization' ? '/settings' : `/settings/${v}`)}>
        <Tabs.List>
          {tabs.map((x) => (
            <Tabs.Tab key={x.value} value={x.value}>
              {t(x.key)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {tabs.map((x) => (
          <Tabs.Panel key={x.value} value={x.value} pt="md">
            {x.value === current ? (
              <Suspense fallback={<Loading />}>
                {current === 'organization' ? <Organization /> : null}
                {current === 'users' ? <Users /> : null}
                {current === 'tax-rates' ? <TaxRates /> : null}
                {current === 'currencies' ? <Currencies /> : null}
                {current === 'security' ? <Security /> : null}
                {current === 'audit' ? <AuditLog /> : null}
                {current === 'einvoicing' ? <Einvoicing /> : null}
              </Suspense>
            ) : null}
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}
