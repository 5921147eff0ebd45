import bcrypt from 'bcrypt';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { verifyPassword } from '../src/lib/crypto.js';

afterEach(() => vi.restoreAllMocks());

describe('password verification (issue 33 item 12)', () => {
  it('compares an unknown e-mail against a hash of the configured cost, so it costs what a real check costs', async () => {
    const compare = vi.spyOn(bcrypt, 'compare');
    for (const cost of [5, 6]) {
      expect(await verifyPassword('Correct-Horse-9', null, cost)).toBe(false);
      const used = compare.mock.calls.at(-1)?.[1] as string;
      expect(bcrypt.getRounds(used)).toBe(cost);
    }
  });

  it('still accepts the right password and refuses a wrong one', async () => {
    const hash = await bcrypt.hash('Correct-Horse-9', 4);
    expect(await verifyPassword('Correct-Horse-9', hash, 4)).toBe(true);
    expect(await verifyPassword('Wrong-Horse-9', hash, 4)).toBe(false);
  });
});
