import type { Job } from '@app/shared/scheduler';
import { deliverDue, runSefSync, type SefDeps } from './sef.service.js';

/**
 * Delivers queued SEF documents whose attempt is due (D3): each document is claimed with a lease
 * in a committed statement (FOR UPDATE SKIP LOCKED), so instances never send the same one at once,
 * and the call runs outside any transaction. SEF_DELIVERY_INTERVAL (0s: off).
 */
export function sefDeliveryJob(deps: SefDeps): Job {
  return {
    name: 'sef-delivery',
    intervalMs: deps.config.sef.deliveryIntervalMs,
    runOnStart: true,
    run: async () => {
      while ((await deliverDue(deps)) > 0) {
        // drain what is due, 20 at a time
      }
    },
  };
}

/** Status changes, purchase intake and the daily code lists, once across instances (SEF_SYNC_INTERVAL). */
export function sefSyncJob(deps: SefDeps): Job {
  return {
    name: 'sef-sync',
    intervalMs: deps.config.sef.syncIntervalMs,
    runOnStart: true,
    run: () => runSefSync(deps),
  };
}
