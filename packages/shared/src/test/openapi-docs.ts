import type { FastifyInstance } from 'fastify';

type Schema = Record<string, any>;

/** Every operation of a service's OpenAPI document (`METHOD /path` and the operation object). */
export async function openApiOperations(app: FastifyInstance): Promise<Array<[string, Schema]>> {
  const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as Schema;
  const out: Array<[string, Schema]> = [];
  for (const [path, item] of Object.entries<Schema>(doc.paths ?? {})) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      if (item[method]) out.push([`${method.toUpperCase()} ${path}`, item[method]]);
    }
  }
  return out;
}

/** Operations without a summary or a description (issue 25 item 6). */
export function undocumented(ops: Array<[string, Schema]>): string[] {
  return ops
    .filter(
      ([, op]) =>
        !(
          typeof op.summary === 'string' &&
          op.summary.trim() &&
          typeof op.description === 'string' &&
          op.description.trim()
        ),
    )
    .map(([name]) => name);
}
