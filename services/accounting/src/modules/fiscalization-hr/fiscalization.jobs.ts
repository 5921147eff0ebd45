import type { Job } from '@app/shared/scheduler';
import type { SefDeps } from '../sef/sef.service.js';
import { runFiscalDelivery } from './fiscalization.service.js';

/**
 * Sends the Croatian fiscalization messages whose attempt is due (first attempts a crash cut
 * short, retries after the backoff), once across instances (advisory lock), each claimed with a
 * lease; the calls run outside any transaction. FISCALIZATION_DELIVERY_INTERVAL (0s: off).
 */
export function fiscalDeliveryJob(deps: SefDeps): Job {
  return {
    name: 'fiscalization-delivery',
    intervalMs: deps.config.fiscalization.deliveryIntervalMs,
    runOnStart: true,
    run: () => runFiscalDelivery(deps),
  };
}
