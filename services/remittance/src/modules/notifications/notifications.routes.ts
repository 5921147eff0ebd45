import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { scopeOf } from '../../plugins/authenticate.js';
import { errors } from '../../schemas.js';
import { MarkReadBody, MarkReadResponse, NotificationListResponse } from './notifications.schemas.js';
import { listOwnNotifications, markOwnNotificationsRead } from './notifications.service.js';

/** The newest this many are listed (the spec's "all", bounded). */
const LIST_CAP = 200;

/** Registered only when FEATURES_NOTIFICATIONS is on; off, the routes answer 404 like any unknown route (R13). */
export function notificationsRoutes() {
  return async (scope: FastifyInstance): Promise<void> => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const tags = ['notifications'];

    app.get(
      '/notifications',
      { schema: { tags, response: { 200: NotificationListResponse, ...errors(401) } } },
      async (req) => {
        const rows = await listOwnNotifications(scopeOf(req), LIST_CAP);
        return {
          data: rows.map((n) => ({
            id: n.id,
            type: n.type,
            title: n.title,
            body: n.body,
            read: n.read === 1,
            createdAt: n.created_at.toISOString(),
          })),
        };
      },
    );

    app.patch(
      '/notifications',
      { schema: { tags, body: MarkReadBody, response: { 200: MarkReadResponse, ...errors(400, 401, 403, 422) } } },
      async (req) => ({
        data: { updated: await markOwnNotificationsRead(scopeOf(req), [...new Set(req.body.notificationIds)]) },
      }),
    );
  };
}
