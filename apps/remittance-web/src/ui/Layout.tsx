import { AppShell, Badge, Burger, Button, Group, NavLink, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { api } from '../api/client.js';
import { useAuth } from '../auth.js';
import { type MessageKey, useI18n } from '../i18n/index.js';
import { LanguageSwitch } from './LanguageSwitch.js';
import { queryClient } from './query-client.js';

const NAV: { to: string; key: MessageKey }[] = [
  { to: '/dashboard', key: 'nav.dashboard' },
  { to: '/send', key: 'nav.send' },
  { to: '/pay', key: 'nav.pay' },
  { to: '/recipients', key: 'nav.recipients' },
  { to: '/history', key: 'nav.history' },
  { to: '/bank-accounts', key: 'nav.banks' },
  { to: '/notifications', key: 'nav.notifications' },
  { to: '/merchant', key: 'nav.merchant' },
  { to: '/settings', key: 'nav.settings' },
  { to: '/privacy', key: 'nav.privacy' },
  { to: '/complaints', key: 'nav.complaints' },
];

/** Whether the card routes exist (R14: 404 while FEATURE_CARDS is off). */
function useCardsEnabled(): boolean {
  const cards = useQuery({
    queryKey: ['cards-enabled'],
    queryFn: async () => (await api.GET('/api/cards')).response.ok,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return cards.data === true;
}

/** The signed-in frame: navigation and header, and the query cache of every signed-in screen. */
export function Layout({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <Frame>{children}</Frame>
    </QueryClientProvider>
  );
}

function Frame({ children }: { children: ReactNode }) {
  const [opened, { toggle, close }] = useDisclosure();
  const { t } = useI18n();
  const { me, signOut } = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const unread = useQuery({
    queryKey: ['notifications'],
    queryFn: async () => (await api.GET('/api/notifications')).data?.data ?? [],
  });
  const leave = async () => {
    await signOut();
    queryClient.clear();
    navigate('/');
  };
  const unreadCount = unread.data?.filter((n) => !n.read).length ?? 0;
  const nav = useCardsEnabled()
    ? [...NAV.slice(0, 6), { to: '/cards', key: 'nav.cards' as const }, ...NAV.slice(6)]
    : NAV;
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 230, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="sm" justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('app.menu')} />
            <Text fw={700} component={Link} to="/dashboard" style={{ whiteSpace: 'nowrap' }}>
              {t('app.name')}
            </Text>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <LanguageSwitch />
            <Button size="xs" variant="default" onClick={leave} visibleFrom="sm">
              {t('nav.signOut')}
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label={t('app.menu')}>
        {nav.map((item) => (
          <NavLink
            key={item.to}
            component={Link}
            to={item.to}
            label={t(item.key)}
            variant="filled"
            color="teal.9"
            active={location.pathname.startsWith(item.to)}
            onClick={close}
            rightSection={
              item.to === '/notifications' && unreadCount ? (
                <Badge size="sm" color="red.9" aria-label={t('notifications.unreadCount', { count: unreadCount })}>
                  {unreadCount}
                </Badge>
              ) : null
            }
          />
        ))}
        <Text size="xs" c="dimmed" mt="auto" p="xs">
          {me ? `${me.firstName} ${me.lastName}` : null}
        </Text>
        {/* On a phone the header has no room for it: sign out sits at the end of the menu. */}
        <Button size="xs" variant="default" onClick={leave} hiddenFrom="sm" m="xs">
          {t('nav.signOut')}
        </Button>
      </AppShell.Navbar>
      <AppShell.Main id="main">{children}</AppShell.Main>
    </AppShell>
  );
}

export default Layout;
