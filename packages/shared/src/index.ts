export * from './config.js';
export * from './db/database.js';
export { migrate } from './db/migrate.js';
export * from './db/unavailable.js';
export * from './http.js';
export * from './input-hygiene.js';
