import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { localizeDetail } from '../../lib/detail-messages.js';
import { AppError } from '../../lib/errors.js';
import { readForm } from '../../lib/multipart-form.js';
import { errorResponses, IdParams } from '../../lib/schemas.js';
import { principalOf, scopeOf } from '../../plugins/auth.js';
import {
  BankAccount,
  BankAccountList,
  BankTransactionList,
  BankTransactionsQuery,
  CreateBankAccountBody,
  ImportResult,
  ReconcileBody,
  ReconcileResult,
  UnreconcileBody,
  UnreconcileResult,
} from './banking.schemas.js';
import {
  createBankAccount,
  type DocumentPayments,
  getBankAccount,
  listBankAccounts,
  listBankTransactions,
  reconcile,
  unreconcile,
} from './banking.service.js';
import { drain, readUpload } from './statement-csv.js';
import { importStatement, STATEMENT_MAX_BYTES } from './statement-import.js';

/** The multipart parser stops a file at the size limit and marks it truncated: that is a 413. */
async function* refuseTruncated(file: AsyncIterable<Buffer> & { truncated?: boolean }) {
  for await (const chunk of file) yield chunk as Buffer;
  if (file.truncated) throw new AppError('SVC-5007', { file: ['must be at most 5 MB'] });
}

const OWNER_ADMIN = ['owner', 'admin'] as const;
const WRITERS = ['owner', 'admin', 'accountant'] as const;

/** /api/v1/bank-accounts (spec "Bank accounts"; A9, A14, A15). */
export function bankingRoutes(payments: DocumentPayments) {
  const tags = ['Bank accounts'];
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/',
      {
        schema: { tags, response: { 200: BankAccountList, ...errorResponses(401, 403) } },
      },
      async (request) => {
        return listBankAccounts(scopeOf(request));
      },
    );

    app.post(
      '/',
      {
        config: { auth: OWNER_ADMIN, perMinute: 10 },
        schema: {
          tags,
          body: CreateBankAccountBody,
          response: { 201: BankAccount, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request, reply) => {
        const account = await createBankAccount(scopeOf(request), request.body);
        return reply.status(201).send(account);
      },
    );

    app.get(
      '/:id/transactions',
      {
        schema: {
          tags,
          params: IdParams,
          querystring: BankTransactionsQuery,
          response: { 200: BankTransactionList, ...errorResponses(400, 401, 403, 404, 422) },
        },
      },
      async (request) => {
        return listBankTransactions(
          scopeOf(request),
          request.params.id,
          request.query,
          principalOf(request).organization.country,
        );
      },
    );

    app.post(
      '/:id/import',
      {
        config: { auth: WRITERS, perMinute: 10, uploadLimit: STATEMENT_MAX_BYTES },
        schema: {
          tags,
          params: IdParams,
          consumes: ['multipart/form-data'],
          description: 'Multipart form with one CSV file (any field name, e.g. "file"), at most 5 MB.',
          response: { 200: ImportResult, ...errorResponses(401, 403, 404, 413, 422) },
        },
      },
      async (request) => {
        const scope = scopeOf(request);
        // The bank account first, so an unknown one is told so before the upload is read.
        const bank = await getBankAccount(scope, request.params.id);
        if (!request.isMultipart()) throw new AppError('SVC-5006', { file: ['send the CSV as multipart/form-data'] });
        // The whole form is read (the file at most 5 MB, in memory) before any database work, so a
        // second file or a broken end refuses the import without a row written.
        const form = await readForm(request, {
          limits: { fileSize: STATEMENT_MAX_BYTES, fields: 10 },
          onFile: (part) => readUpload(refuseTruncated(part.file)),
          tooLarge: () => new AppError('SVC-5007', { file: ['must be at most 5 MB'] }),
        });
        if (!form.file) throw new AppError('SVC-5006', { file: ['a CSV file is required'] });
        const summary = await importStatement(scope, bank, drain(form.file.value));
        // Each refused row's reason in the organization's language, like the error details.
        const lang = request.lang ?? 'en';
        return {
          ...summary,
          errors: summary.errors.map((e) => ({ line: e.line, error: localizeDetail(e.error, lang) })),
        };
      },
    );

    app.post(
      '/:id/reconcile',
      {
        config: { auth: WRITERS, perMinute: 10 },
        schema: {
          tags,
          params: IdParams,
          body: ReconcileBody,
          response: { 200: ReconcileResult, ...errorResponses(400, 401, 403, 404, 422) },
        },
      },
      async (request) => {
        return reconcile(scopeOf(request), principalOf(request), request.params.id, request.body, payments);
      },
    );

    app.post(
      '/:id/unreconcile',
      {
        config: { auth: WRITERS, perMinute: 10 },
        schema: {
          tags,
          params: IdParams,
          body: UnreconcileBody,
          response: { 200: UnreconcileResult, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => {
        return unreconcile(scopeOf(request), principalOf(request), request.params.id, request.body.bankTransactionId);
      },
    );
  };
}
