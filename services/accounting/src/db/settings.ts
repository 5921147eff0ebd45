/**
 * PostgreSQL settings for every connection of the accounting service (createDatabase `settings`;
 * a PostgreSQL URL's own `options` parameter takes their place).
 *
 * plan_cache_mode = force_generic_plan. The service's statements are named, so PostgreSQL parses
 * each one once per connection (raw-client.ts), but it still plans a named statement again at
 * every execution for as long as it estimates the custom plans cheaper than the generic one. For
 * the invoice list it always did (its LIMIT and OFFSET are parameters, which make the generic
 * plan's estimate high): measured alone, the statement that computes a page cost 275-363 µs of
 * PostgreSQL CPU planned per execution and 110-113 µs with a generic plan (docs/perf/hot-paths.md, "Hot
 * paths: where the rest goes", 2026-11-25). The other hot paths, the reports (every report and
 * period, p50 within 1 ms either way) and the banking benchmark showed no change. The statements' plans do not depend on their values in a way a custom plan
 * would exploit: every one reads its organization's rows through an index that starts with it.
 */
export const DATABASE_SETTINGS = { plan_cache_mode: 'force_generic_plan' } as const;
