// The serving rules (W1, W3) are the same for both services' web apps: packages/shared/src/web-app.ts.
export { webAppRoutes } from '@app/shared/web-app';
