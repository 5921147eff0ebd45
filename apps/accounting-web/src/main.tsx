import '@mantine/core/styles.css';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, Navigate, Outlet, RouterProvider, useLocation } from 'react-router';
import { ApiError } from './api/client.js';
import { AuthProvider, useAuth } from './auth.js';
import { I18nProvider } from './i18n/index.js';
import { Loading } from './ui/states.js';
import { cssVariablesResolver, theme } from './ui/theme.js';

// One chunk per screen group (the sign-in page loads none of the others).
const SignIn = lazy(() => import('./pages/SignIn.js'));
const Register = lazy(() => import('./pages/Register.js'));
const AcceptInvite = lazy(() => import('./pages/AcceptInvite.js'));
const Dashboard = lazy(() => import('./pages/Dashboard.js'));
const Contacts = lazy(() => import('./pages/Contacts.js'));
const InvoiceList = lazy(() => import('./pages/InvoiceList.js'));
const InvoiceEdit = lazy(() => import('./pages/InvoiceEdit.js'));
const InvoiceView = lazy(() => import('./pages/InvoiceView.js'));
const NotFound = lazy(() => import('./pages/NotFound.js'));
const Expenses = lazy(() => import('./pages/Expenses.js'));
const Banking = lazy(() => import('./pages/Banking.js'));
const BankAccount = lazy(() => import('./pages/BankAccount.js'));
const Settings = lazy(() => import('./pages/settings/SettingsHub.js'));
const Ledger = lazy(() => import('./pages/books/Ledger.js'));
const AccountPage = lazy(() => import('./pages/books/Account.js'));
const JournalEntry = lazy(() => import('./pages/books/JournalEntry.js'));
const EntryPage = lazy(() => import('./pages/books/Entry.js'));
const Reports = lazy(() => import('./pages/books/Reports.js'));
const PurchaseInvoices = lazy(() => import('./pages/PurchaseInvoices.js'));
// The signed-in frame (navigation, header) is not part of the sign-in page's JavaScript.
const Layout = lazy(() => import('./ui/Layout.js'));

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A refused call (4xx) is an answer, not a glitch: no retry.
      retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});

/** `/` is the sign-in form for a signed-out visitor and the dashboard for a signed-in one. */
function Home() {
  const { state } = useAuth();
  if (state === 'starting') return <Loading />;
  return state === 'signedIn' ? (
    <Layout>
      <Dashboard />
    </Layout>
  ) : (
    <SignIn />
  );
}

/** Screens of a signed-in user; a signed-out visitor goes to `/` and comes back after signing in. */
function SignedIn() {
  const { state } = useAuth();
  const location = useLocation();
  if (state === 'starting') return <Loading />;
  if (state === 'signedOut') return <Navigate to="/" replace state={{ from: location.pathname + location.search }} />;
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

const router = createBrowserRouter([
  {
    element: <Root />,
    children: [
      { path: '/', element: <Home /> },
      { path: '/register', element: <Register /> },
      { path: '/accept-invite', element: <AcceptInvite /> },
      {
        element: <SignedIn />,
        children: [
          { path: '/contacts', element: <Contacts /> },
          { path: '/invoices', element: <InvoiceList /> },
          { path: '/invoices/new', element: <InvoiceEdit /> },
          { path: '/invoices/:id', element: <InvoiceView /> },
          { path: '/invoices/:id/edit', element: <InvoiceEdit /> },
          { path: '/expenses', element: <Expenses /> },
          { path: '/banking', element: <Banking /> },
          { path: '/banking/:id', element: <BankAccount /> },
          { path: '/settings/:tab?', element: <Settings /> },
          { path: '/ledger', element: <Ledger /> },
          { path: '/ledger/accounts/:id', element: <AccountPage /> },
          { path: '/ledger/journal', element: <JournalEntry /> },
          { path: '/ledger/entries/:id', element: <EntryPage /> },
          { path: '/reports/:kind?', element: <Reports /> },
          { path: '/purchase-invoices/:id?', element: <PurchaseInvoices /> },
          { path: '*', element: <NotFound /> },
        ],
      },
    ],
  },
]);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <QueryClientProvider client={queryClient}>
        <I18nProvider>
          <AuthProvider>
            <RouterProvider router={router} />
          </AuthProvider>
        </I18nProvider>
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
