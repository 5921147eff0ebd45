import type { Job } from '@app/shared/scheduler';
import type { SefDeps } from '../sef/sef.service.js';
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
