import { describe, expect, it } from 'vitest';
import { createHttp } from './http.js';
import { createScheduler, Scheduler } from './scheduler.js';

const silent = createHttp({ logLevel: 'silent', trustProxy: false }).log;
const nextTurn = () => new Promise((r) => setImmediate(r));

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('Scheduler', () => {
  it('runs a job at start, and stop() waits for the running job before it resolves', async () => {
    const scheduler = new Scheduler(silent);
    const gate = deferred();
    let runs = 0;
    let finished = false;
    scheduler.add({
      name: 'slow',
      intervalMs: 3_600_000,
      runOnStart: true,
      run: async () => {
        runs += 1;
        await gate.promise;
        finished = true;
      },
    });
    scheduler.start();
    await nextTurn();
    expect(runs).toBe(1);
    let stopped = false;
    const stopping = scheduler.stop().then(() => (stopped = true));
    await nextTurn();
    expect(stopped).toBe(false);
    gate.resolve();
    await stopping;
    expect(finished).toBe(true);
  });

  it('leaves out jobs without an interval, and never starts a job after stop()', async () => {
    const scheduler = new Scheduler(silent);
    let runs = 0;
    scheduler.add({
      name: 'off',
      intervalMs: 0,
      runOnStart: true,
      run: async () => {
        runs += 1;
      },
    });
    scheduler.add({
      name: 'late',
      intervalMs: 3_600_000,
      runOnStart: true,
      run: async () => {
        runs += 1;
      },
    });
    expect(scheduler.names).toEqual(['late']);
    scheduler.start();
    await scheduler.stop();
    await nextTurn();
    expect(runs).toBe(0);
  });

  it('keeps running after a job fails', async () => {
    const scheduler = new Scheduler(silent);
    scheduler.add({
      name: 'fails',
      intervalMs: 3_600_000,
      runOnStart: true,
      run: async () => {
        throw new Error('feed offline');
      },
    });
    scheduler.start();
    await nextTurn();
    await expect(scheduler.stop()).resolves.toBeUndefined();
  });

  it('starts with the app and stops when the app closes (createScheduler)', async () => {
    const app = createHttp({ logLevel: 'silent', trustProxy: false });
    const scheduler = createScheduler(app);
    const gate = deferred();
    let runs = 0;
    let finished = false;
    scheduler.add({
      name: 'job',
      intervalMs: 3_600_000,
      runOnStart: true,
      run: async () => {
        runs += 1;
        await gate.promise;
        finished = true;
      },
    });
    await nextTurn();
    expect(runs).toBe(0);
    await app.ready();
    await nextTurn();
    expect(runs).toBe(1);
    const closing = app.close();
    gate.resolve();
    await closing;
    expect(finished).toBe(true);
  });
});
