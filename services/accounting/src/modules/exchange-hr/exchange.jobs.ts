import type { Job } from '@app/shared/scheduler';
import type { SefDeps } from '../sef/sef.service.js';
import { runIntermediaryDelivery, runIntermediaryStatus } from './delivery.service.js';
import { runIntermediaryIntake } from './exchange.service.js';

/** Received HR e-invoices into purchase invoices, once across instances (INTERMEDIARY_SYNC_INTERVAL; 0s: off). */
export function intermediaryIntakeJob(deps: SefDeps): Job {
  return {
    name: 'intermediary-intake',
    intervalMs: deps.config.intermediary.syncIntervalMs,
    runOnStart: true,
    run: () => runIntermediaryIntake(deps),
  };
}

/**
 * Sends the e-invoices queued for the intermediary whose attempt is due (retries after a failure,
 * first attempts a crash cut short), once across instances, each claimed with a lease; the calls
 * run outside any transaction. INTERMEDIARY_DELIVERY_INTERVAL (0s: off).
 */
export function intermediaryDeliveryJob(deps: SefDeps): Job {
  return {
    name: 'intermediary-delivery',
    intervalMs: deps.config.intermediary.deliveryIntervalMs,
    runOnStart: true,
    run: () => runIntermediaryDelivery(deps),
  };
}

/** The status of sent e-invoices, until delivered and decided by the buyer (INTERMEDIARY_SYNC_INTERVAL). */
export function intermediaryStatusJob(deps: SefDeps): Job {
  return {
    name: 'intermediary-status',
    intervalMs: deps.config.intermediary.syncIntervalMs,
    runOnStart: true,
    run: () => runIntermediaryStatus(deps),
  };
}
