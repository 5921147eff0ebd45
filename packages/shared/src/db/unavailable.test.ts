import { describe, expect, it } from 'vitest';
import {
  classifyDatabaseError,
  DatabaseUnavailableError,
  isConnectivityError,
  isDatabaseUnavailable,
} from './unavailable.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('database connectivity failures (G15)', () => {
  it.each([
    ['connection refused', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['connection reset', withCode('read ECONNRESET', 'ECONNRESET')],
    ['administrator shutdown', withCode('terminating connection due to administrator command', '57P01')],
    ['crash shutdown', withCode('terminating connection because of crash of another server process', '57P02')],
    ['server starting up', withCode('the database system is starting up', '57P03')],
    ['class 08 connection exception', withCode('connection failure', '08006')],
    ['socket closed mid-statement', new Error('Connection terminated unexpectedly')],
    ['pool wait timeout', new Error('timeout exceeded when trying to connect')],
    ['embedded database closed', new Error('PGlite is closed')],
  ])('classifies %s as the database being unavailable', (_name, err) => {
    expect(isConnectivityError(err)).toBe(true);
    const classified = classifyDatabaseError(err);
    expect(classified).toBeInstanceOf(DatabaseUnavailableError);
    expect((classified as Error).cause).toBe(err);
  });

  it.each([
    ['unique violation', withCode('duplicate key value violates unique constraint', '23505')],
    ['serialization failure', withCode('could not serialize access', '40001')],
    ['query cancelled', withCode('canceling statement due to statement timeout', '57014')],
    ['NUL in text', withCode('invalid byte sequence for encoding "UTF8": 0x00', '22021')],
    ['a plain bug', new TypeError('x is undefined')],
  ])('keeps %s as it is', (_name, err) => {
    expect(isConnectivityError(err)).toBe(false);
    expect(classifyDatabaseError(err)).toBe(err);
  });

  it('finds the outage in a cause chain', () => {
    const wrapped = new Error('could not save', {
      cause: new DatabaseUnavailableError(new Error('Connection terminated')),
    });
    expect(isDatabaseUnavailable(wrapped)).toBe(true);
    expect(isDatabaseUnavailable(new Error('other'))).toBe(false);
  });
});
