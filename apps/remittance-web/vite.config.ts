import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * `npm run dev`: Vite on 5174 with /api proxied to the remittance service (REMITTANCE_PORT, 3001).
 * The service's own origin must be allowed (R4): open the app at http://127.0.0.1:3001 after
 * `npm start`, or add http://localhost:5174 to ALLOWED_ORIGINS for the development server.
 */
const service = `http://127.0.0.1:${process.env.REMITTANCE_PORT ?? 3001}`;

export default defineConfig({
  plugins: [react()],
  server: { port: 5174, proxy: { '/api': service, '/openapi.json': service } },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    sourcemap: false,
    chunkSizeWarningLimit: 1200,
    // Which chunks each route loads: bench/web-bundle.ts sums them against the budgets.
    manifest: true,
  },
});
