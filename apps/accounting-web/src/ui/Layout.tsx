import { AppShell, Burger, Button, Center, Group, Loader, NavLink, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { type ReactNode, useEffect } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useAuth } from '../auth.js';
import { type MessageKey, useI18n } from '../i18n/index.js';
import { LanguageSwitch } from './Centered.js';

const NAV: ReadonlyArray<{ to: string; key: MessageKey; countries?: readonly string[] }> = [
  { to: '/', key: 'nav.dashboard' },
  { to: '/contacts', key: 'nav.contacts' },
  { to: '/invoices', key: 'nav.invoices' },
  // Received e-invoices: Serbian organizations (SEF's intake), Croatian ones (the information intermediary's).
  { to: '/purchase-invoices', key: 'nav.purchaseInvoices', countries: ['RS', 'HR'] },
  { to: '/expenses', key: 'nav.expenses' },
  { to: '/banking', key: 'nav.banking' },
  { to: '/ledger', key: 'books.nav.ledger' },
  { to: '/reports', key: 'books.nav.reports' },
  { to: '/settings', key: 'nav.settings' },
];

export function Layout({ children }: { children: ReactNode }) {
  const [opened, { toggle, close }] = useDisclosure();
  const { t, requireAreas, areasReady } = useI18n();
  // The screens' messages come with the signed-in frame, not with the sign-in page (docs/web-app.md WA6).
  useEffect(requireAreas, [requireAreas]);
  const { me, signOut } = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('app.menu')} />
            <Text fw={700} component={Link} to="/">
              {t('app.name')}
            </Text>
            <Text size="sm" c="dimmed" visibleFrom="sm" truncate>
              {me?.organization.name}
            </Text>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <LanguageSwitch />
            <Button
              size="xs"
              variant="default"
              onClick={async () => {
                await signOut();
                navigate('/');
              }}
            >
              {t('nav.signOut')}
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label={t('app.menu')}>
        {NAV.filter((item) => !item.countries || item.countries.includes(me?.organization.country ?? '')).map(
          (item) => (
            <NavLink
              key={item.to}
              component={Link}
              to={item.to}
              label={t(item.key)}
              variant="filled"
              color="teal.9"
              active={item.to === '/' ? location.pathname === '/' : location.pathname.startsWith(item.to)}
              onClick={close}
            />
          ),
        )}
        <Text size="xs" c="dimmed" mt="auto" p="xs">
          {me ? `${me.fullName} · ${t(`role.${me.role}`)}` : null}
        </Text>
      </AppShell.Navbar>
      <AppShell.Main id="main">
        {areasReady ? (
          children
        ) : (
          <Center py="xl">
            <Loader aria-label={t('app.loading')} />
          </Center>
        )}
      </AppShell.Main>
    </AppShell>
  );
}

export default Layout;
