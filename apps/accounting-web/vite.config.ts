import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * `npm run dev`: Vite on 5173 with /api proxied to the accounting service (ACCOUNTING_PORT, 3000), so
 * the refresh cookie is same-origin as it is when the service serves the built app (W1).
 */
const service = `http://127.0.0.1:${process.env.ACCOUNTING_PORT ?? 3000}`;

export default defineConfig({
  plugins: [react()],
  server: { port: 5173, proxy: { '/api': service, '/openapi.json': service } },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    sourcemap: false,
    chunkSizeWarningLimit: 1200,
    // Which chunks each route loads: bench/web-bundle.ts sums them against the budgets.
    manifest: true,
  },
});
