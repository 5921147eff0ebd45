import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { listQuery, Paginated, pageRequest } from '../../lib/pagination.js';
import { errorResponses, IsoDate, literalUnion } from '../../lib/schemas.js';
import { scopeOf } from '../../plugins/auth.js';
import { listAuditLog } from './audit.service.js';

const SORTABLE = ['createdAt'] as const;
const ACTIONS = ['INSERT', 'UPDATE', 'DELETE'] as const;

const AuditQuery = listQuery(SORTABLE, {
  tableName: Type.Optional(Type.String({ maxLength: 63 })),
  action: Type.Optional(literalUnion(ACTIONS)),
  recordId: Type.Optional(Type.String({ maxLength: 64 })),
  fromDate: Type.Optional(IsoDate),
  toDate: Type.Optional(IsoDate),
  // Extension: false leaves out the sign-in records (sessions and refresh tokens: a row at every
  // sign-in and token renewal), which otherwise fill the log; a tableName filter naming them wins.
  sessions: Type.Optional(Type.Boolean()),
});

const LoggedAction = Type.Object({
  id: Type.String(),
  tableName: Type.String(),
  action: literalUnion(ACTIONS),
  recordId: Type.Union([Type.String(), Type.Null()]),
  userId: Type.Union([Type.String(), Type.Null()]),
  requestId: Type.Union([Type.String(), Type.Null()]),
  oldValues: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  newValues: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  createdAt: Type.String(),
});

/** GET /audit-log (A20): the organization's LoggedAction rows, newest first by default. */
export function auditRoutes() {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/',
      {
        config: { auth: ['owner', 'admin'] },
        schema: {
          tags: ['Audit'],
          querystring: AuditQuery,
          response: { 200: Paginated(LoggedAction), ...errorResponses(400, 401, 403) },
        },
      },
      async (request) => {
        const q = request.query;
        const page = pageRequest(q, SORTABLE, 'createdAt');
        return listAuditLog(scopeOf(request), q, page);
      },
    );
  };
}
