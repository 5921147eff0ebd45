import type { Session } from './helpers.js';

/**
 * Another organization's record per route with an id, and a valid body where one is needed, so
 * the answer is about ownership and not about validation. Features add their routes here.
 */
export const crossOrgFixtures: Record<string, (s: Record<string, Session>) => { id: string; payload?: object }> = {
  'DELETE /api/v1/users/:id': (s) => ({ id: s.viewer.userId }),
  'PUT /api/v1/users/:id/role': (s) => ({ id: s.viewer.userId, payload: { role: 'admin' } }),
};
