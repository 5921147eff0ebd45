import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * `npm run dev` (scripts/start-all.ts): Vite on http://127.0.0.1:5174 with /api proxied to the
 * remittance service (REMITTANCE_PORT, 3001). start-all gives the service REMITTANCE_PUBLIC_URL =
 * this server's URL, so the eID and bank redirects come back here, the sign-in cookie is this
 * origin's and the Origin the browser sends is the allowed one (R4). Running Vite alone
 * (`npm run dev -w @app/remittance-web`) needs the service started with that URL too.
 */
const service = `http://127.0.0.1:${process.env.REMITTANCE_PORT ?? 3001}`;
const port = Number(process.env.REMITTANCE_WEB_DEV_PORT ?? 5174);

export default defineConfig({
  plugins: [react()],
  server: { host: '127.0.0.1', port, strictPort: true, proxy: { '/api': service, '/openapi.json': service } },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    sourcemap: false,
    chunkSizeWarningLimit: 1200,
    // Which chunks each route loads: bench/web-bundle.ts sums them against the budgets.
    manifest: true,
  },
});
