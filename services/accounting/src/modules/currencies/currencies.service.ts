import type { TenantScope } from '../../db/tenant-scope.js';
import * as repo from './currencies.repository.js';

/** GET /currencies: every currency the service knows, by code. */
export async function listCurrencies(scope: TenantScope) {
  const rows = await scope.run(repo.listCurrencies);
  return {
    data: rows.map((c) => ({
      code: c.code,
      name: c.name,
      symbol: c.symbol,
      decimalPlaces: c.decimal_places,
      isActive: c.is_active,
    })),
  };
}
