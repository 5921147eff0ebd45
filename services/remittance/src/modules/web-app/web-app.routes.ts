// The remittance web app (apps/remittance-web, W2, W3), served with the accounting app's rules:
// packages/shared/src/web-app.ts.
export { webAppRoutes } from '@app/shared/web-app';
