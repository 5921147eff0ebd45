import '@mantine/core/styles.css';
import { DirectionProvider, MantineProvider, useDirection } from '@mantine/core';
import { lazy, StrictMode, Suspense, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Navigate, Outlet, Route, Routes, useLocation } from 'react-router';
import { AuthProvider, useAuth } from './auth.js';
import { I18nProvider, RTL, useI18n } from './i18n/index.js';
import { consentActionWaiting } from './lib/resume.js';
import { Loading } from './ui/states.js';
import { cssVariablesResolver, theme } from './ui/theme.js';

// One chunk per screen (the sign-in page loads none of the others).
const SignIn = lazy(() => import('./pages/SignIn.js'));
const Dashboard = lazy(() => import('./pages/Dashboard.js'));
const BankAccounts = lazy(() => import('./pages/BankAccounts.js'));
const Recipients = lazy(() => import('./pages/Recipients.js'));
const Send = lazy(() => import('./pages/Send.js'));
const History = lazy(() => import('./pages/History.js'));
const TransactionView = lazy(() => import('./pages/TransactionView.js'));
const Pay = lazy(() => import('./pages/Pay.js'));
const Notifications = lazy(() => import('./pages/Notifications.js'));
const Settings = lazy(() => import('./pages/Settings.js'));
const Privacy = lazy(() => import('./pages/Privacy.js'));
const Complaints = lazy(() => import('./pages/Complaints.js'));
const Merchant = lazy(() => import('./pages/Merchant.js'));
const Cards = lazy(() => import('./pages/Cards.js'));
const NotFound = lazy(() => import('./pages/NotFound.js'));
// The signed-in frame is not part of the sign-in page's JavaScript.
const Layout = lazy(() => import('./ui/Layout.js'));

/** `/` and `/login`: the sign-in page for a signed-out visitor, the dashboard for a signed-in one. */
function Home() {
  const { state } = useAuth();
  if (state === 'starting') return <Loading />;
  return state === 'signedIn' ? <Navigate to="/dashboard" replace /> : <SignIn />;
}

/** Screens of a signed-in user; a signed-out visitor sees the sign-in page. */
function SignedIn() {
  const { state } = useAuth();
  const location = useLocation();
  if (state === 'starting') return <Loading />;
  if (state === 'signedOut') return <Navigate to="/" replace state={{ from: location.pathname }} />;
  // Back from an eID sign-in that a bank consent's renewal asked for (step-up): to that renewal.
  if (location.pathname !== '/bank-accounts' && consentActionWaiting()) return <Navigate to="/bank-accounts" replace />;
  return (
    <Layout>
      <Suspense fallback={<Loading />}>
        <Outlet />
      </Suspense>
    </Layout>
  );
}

function Root() {
  return (
    <Suspense fallback={<Loading />}>
      <Outlet />
    </Suspense>
  );
}

/** Urdu mirrors the layout: Mantine follows the direction set here and on <html dir>. */
function FollowDirection() {
  const { locale } = useI18n();
  const { setDirection } = useDirection();
  useEffect(() => setDirection(RTL.has(locale) ? 'rtl' : 'ltr'), [locale, setDirection]);
  return null;
}

/**
 * Declarative routes (BrowserRouter): the data router's loaders and actions are not used, and
 * leaving them out keeps the sign-in page inside its JavaScript budget (120 KB, bench/web-bundle.ts).
 */
function App() {
  return (
    <BrowserRouter>
      <Routes>
        <Route element={<Root />}>
          <Route path="/" element={<Home />} />
          <Route path="/login" element={<Home />} />
          <Route element={<SignedIn />}>
            <Route path="/dashboard" element={<Dashboard />} />
            <Route path="/bank-accounts" element={<BankAccounts />} />
            <Route path="/recipients" element={<Recipients />} />
            <Route path="/send" element={<Send />} />
            <Route path="/history" element={<History />} />
            <Route path="/history/:id" element={<TransactionView />} />
            {/* Where the payment callback sends the browser back from the bank (issue 30). */}
            <Route path="/transactions" element={<History />} />
            <Route path="/transactions/:id" element={<TransactionView />} />
            <Route path="/pay" element={<Pay />} />
            <Route path="/notifications" element={<Notifications />} />
            <Route path="/settings" element={<Settings />} />
            <Route path="/privacy" element={<Privacy />} />
            <Route path="/complaints" element={<Complaints />} />
            <Route path="/merchant" element={<Merchant />} />
            <Route path="/cards" element={<Cards />} />
            <Route path="*" element={<NotFound />} />
          </Route>
        </Route>
      </Routes>
    </BrowserRouter>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <DirectionProvider>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
        <I18nProvider>
          <FollowDirection />
          <AuthProvider>
            <App />
          </AuthProvider>
        </I18nProvider>
      </MantineProvider>
    </DirectionProvider>
  </StrictMode>,
);
