import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { clientSocket, corked, isPipelined } from './pg-internals.js';

// These fail when an upgrade of `pg` moves what pg-internals.ts relies on: the pipeline flag and the
// client's socket. Without them the pool still works, one write per query: slower, not wrong.
describe('node-postgres internals the raw client relies on', () => {
  it('the pipeline option reaches the client', () => {
    expect(isPipelined(new pg.Client({ pipeline: true } as pg.ClientConfig))).toBe(true);
    expect(isPipelined(new pg.Client({}))).toBe(false);
  });

  it('a client keeps a corkable socket before it connects', () => {
    const client = new pg.Client({});
    const socket = clientSocket(client);
    expect(socket).not.toBeNull();
    expect(typeof socket?.cork).toBe('function');
  });

  it('corked() corks the socket while queries are submitted and uncorks after, even on a throw', () => {
    const client = new pg.Client({});
    const socket = clientSocket(client) as unknown as { writableCorked: number };
    expect(corked(client, () => socket.writableCorked)).toBe(1);
    expect(socket.writableCorked).toBe(0);
    expect(() =>
      corked(client, () => {
        throw new Error('submit failed');
      }),
    ).toThrow('submit failed');
    expect(socket.writableCorked).toBe(0);
  });
});
