import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findContact, listContacts, lockContact, updateContact } from '../src/modules/contacts/contacts.repository.js';
import { authed, buildTestApp, registerOrg, type Session, type TestApp } from './helpers.js';

/**
 * The first wall on its own: each repository function filters by the organization it is given,
 * even where row-level security (the second wall) does not apply. These run on `db.system`, the
 * login role that RLS does not restrict, so a missing `organization_id` filter shows here instead
 * of being hidden by the policies (issue 34).
 */
let h: TestApp;
let a: Session;
let b: Session;
let mine: { id: string };
let theirs: { id: string };
beforeAll(async () => {
  h = await buildTestApp({ RATE_LIMITS: 'off' });
  a = await registerOrg(h.app);
  b = await registerOrg(h.app);
  const create = async (s: Session, name: string) => {
    const res = await h.app.inject(
      authed(s.token, { method: 'POST', url: '/api/v1/contacts', payload: { type: 'customer', name } }),
    );
    expect(res.statusCode).toBe(201);
    return res.json() as { id: string };
  };
  mine = await create(a, 'Mine');
  theirs = await create(b, 'Theirs');
});
afterAll(() => h?.close());

describe('contacts repository with row-level security off', () => {
  it('findContact and lockContact answer only the given organization’s contact', async () => {
    const sys = h.t.db.system;
    expect((await findContact(sys, a.orgId, mine.id))?.name).toBe('Mine');
    expect(await findContact(sys, a.orgId, theirs.id)).toBeUndefined();
    expect(await sys.transaction().execute((trx) => lockContact(trx, a.orgId, theirs.id))).toBeUndefined();
    expect((await sys.transaction().execute((trx) => lockContact(trx, a.orgId, mine.id)))?.name).toBe('Mine');
  });

  it('updateContact leaves another organization’s contact unchanged', async () => {
    const sys = h.t.db.system;
    expect(await updateContact(sys, a.orgId, theirs.id, { name: 'Hijacked' })).toBeUndefined();
    expect((await findContact(sys, b.orgId, theirs.id))?.name).toBe('Theirs');
    // The filter lets the organization's own contact through: it is changed and returned.
    expect((await updateContact(sys, a.orgId, mine.id, { notes: 'Checked' }))?.notes).toBe('Checked');
    expect((await findContact(sys, a.orgId, mine.id))?.notes).toBe('Checked');
  });

  it('listContacts lists only the given organization’s contacts', async () => {
    const { rows, total } = await listContacts(
      h.t.db.system,
      a.orgId,
      { isActive: true },
      { sort: 'name', order: 'asc', perPage: 50, offset: 0, page: 1 },
    );
    expect(rows.map((r) => r.id)).toEqual([mine.id]);
    expect(total).toBe(1);
  });
});
