import type { FastifyInstance } from 'fastify';
import { Value } from 'typebox/value';

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

/** Where a value breaks a JSON schema of the document (`/path: message`), empty when it fits. */
export function schemaProblems(schema: Schema | undefined, value: unknown): string[] {
  if (!schema) return ['no schema'];
  return [...Value.Errors(schema, value)].map((e) => `${e.instancePath || '/'}: ${e.message}`);
}

/** The JSON request body schema and example of an operation. */
export function requestOf(op: Schema): { schema?: Schema; example?: unknown } {
  const media = op.requestBody?.content?.['application/json'];
  return { schema: media?.schema, example: media?.example };
}

/** The JSON answer schema and example of an operation at a status (default: its first 2xx). */
export function responseOf(
  op: Schema,
  status?: number | string,
): { status?: string; schema?: Schema; example?: unknown } {
  const code =
    status === undefined
      ? Object.keys(op.responses ?? {})
          .filter((c) => c.startsWith('2'))
          .sort()[0]
      : String(status);
  const media = code ? op.responses?.[code]?.content?.['application/json'] : undefined;
  return { status: code, schema: media?.schema, example: media?.example };
}

/**
 * Every example of the document checked against its own schema (issue 25 item 6): each request
 * example against the operation's body schema, each answer example against its status's schema.
 * Answers `METHOD /path request|response <status>: problem` lines, empty when all fit.
 */
export function exampleProblems(ops: Array<[string, Schema]>): string[] {
  const out: string[] = [];
  for (const [name, op] of ops) {
    const request = requestOf(op);
    if (request.example !== undefined) {
      for (const p of schemaProblems(request.schema, request.example)) out.push(`${name} request: ${p}`);
    }
    for (const [status, answer] of Object.entries<Schema>(op.responses ?? {})) {
      const media = answer?.content?.['application/json'];
      if (media?.example === undefined) continue;
      for (const p of schemaProblems(media.schema, media.example)) out.push(`${name} response ${status}: ${p}`);
    }
  }
  return out;
}
