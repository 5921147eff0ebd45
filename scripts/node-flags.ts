/**
 * Node flags each service runs with: `npm start`, `npm run dev` and the benchmarks start the
 * services with them (a deployment that runs `node services/<name>/dist/server.js` itself should
 * pass the same).
 *
 * Accounting: V8's young generation is capped at 2 x 8 MB (default 2 x 16 MB) and the old
 * generation's next collection limit at 1.5x what survived the last one (by default up to 4x for a
 * small heap). Under 50 concurrent requests V8 otherwise lets 60-80 MB of dead request objects pile
 * up in the old space before it collects, so a statement import that follows a burst peaked at
 * 215-248 MB; with these flags it peaked at 146-155 MB (`npm run bench -- banking-memory`), and in
 * interleaved duels the hot paths' CPU per request did not rise (`npm run bench -- flags-duel`:
 * GET /auth/me 0.91-0.95x, the bank transactions list 0.89-1.10x). docs/perf/banking.md has the figures.
 */
export const SERVICE_NODE_FLAGS: Record<'accounting' | 'remittance', string[]> = {
  accounting: ['--max-semi-space-size=8', '--heap-growing-percent=50'],
  remittance: [],
};
