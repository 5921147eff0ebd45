import type { CounterStore } from '@app/shared/counters';
import type { Database } from '@app/shared/db/database';
import type { Redis } from 'ioredis';
import type { Config } from './config.js';
import type { DB } from './db/types.js';
import type { AccessTokens } from './lib/jwt.js';

/** What services need from the running app; built once in buildApp and passed explicitly. */
export interface AppContext {
  config: Readonly<Config>;
  db: Database<DB>;
  tokens: AccessTokens;
  counters: CounterStore;
  redis: Redis | null;
}
