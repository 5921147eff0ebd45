import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../../lib/errors.js';
import { pageRequest } from '../../lib/pagination.js';
import { errorResponses, IdParams } from '../../lib/schemas.js';
import { principalOf, scopeOf } from '../../plugins/auth.js';
import {
  discardStaged,
  formFieldsToBody,
  RECEIPT_MAX_BYTES,
  type ReceiptDeps,
  readReceiptForm,
  type StagedReceipt,
  storeReceipt,
} from '../receipts/receipts.js';
import { approveExpense, EXPENSE_PAYERS, payExpense, rejectExpense } from './expense-transitions.js';
import {
  CreateExpenseBody,
  EXPENSE_SORTS,
  Expense,
  ExpenseList,
  ExpensesQuery,
  PayBody,
  RejectBody,
  UpdateExpenseBody,
} from './expenses.schemas.js';
import {
  createExpense,
  deleteExpense,
  findExpenseReceipt,
  getExpense,
  listExpenses,
  type ReceiptToStore,
  updateExpense,
} from './expenses.service.js';

const WRITERS = ['owner', 'admin', 'accountant'] as const;
const APPROVERS = ['owner', 'admin'] as const;
const FileResponse = Type.Unsafe<Buffer>({
  type: 'string',
  format: 'binary',
  description: 'application/pdf, image/png or image/jpeg',
});

/** /api/v1/expenses (spec "Expenses"; A8, A12, A13). */
export function expensesRoutes(receipts: ReceiptDeps) {
  const tags = ['Expenses'];
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const staged = new WeakMap<FastifyRequest, StagedReceipt>();

    // A multipart form (POST and PUT) is read before validation: the receipt is scanned and typed
    // while it streams in, and the text fields become the body the JSON schema then validates.
    const readForm = async (request: FastifyRequest) => {
      if (!request.isMultipart()) return;
      const form = await readReceiptForm(request, receipts);
      if (form.receipt) staged.set(request, form.receipt);
      request.body = formFieldsToBody(form.fields);
    };
    // The staging file is gone before the answer leaves, whatever the answer.
    app.addHook('onSend', async (request, _reply, payload) => {
      await discardStaged(staged.get(request));
      staged.delete(request);
      return payload;
    });

    /** The staged receipt as the service stores it; stored keys are removed again if the request fails. */
    const receiptOf = (request: FastifyRequest, stored: string[]): ReceiptToStore | null => {
      const s = staged.get(request);
      if (!s) return null;
      return {
        contentType: s.contentType,
        async store(key) {
          await storeReceipt(receipts, s, key, request.log);
          stored.push(key);
        },
      };
    };
    const removeAll = (keys: Array<string | null>) =>
      Promise.all(keys.map((k) => k && receipts.storage.delete(k).catch(() => {})));

    app.get(
      '/',
      {
        schema: {
          tags,
          querystring: ExpensesQuery,
          response: { 200: ExpenseList, ...errorResponses(400, 401, 403, 422) },
        },
      },
      async (request) => {
        const page = pageRequest(request.query, EXPENSE_SORTS, 'expenseDate');
        return listExpenses(scopeOf(request), principalOf(request), request.query, page);
      },
    );

    app.post(
      '/',
      {
        config: { auth: WRITERS, perMinute: 50, uploadLimit: RECEIPT_MAX_BYTES },
        preValidation: readForm,
        schema: {
          tags,
          consumes: ['application/json', 'multipart/form-data'],
          body: CreateExpenseBody,
          response: { 201: Expense, ...errorResponses(401, 403, 404, 413, 422, 500, 503) },
        },
      },
      async (request, reply) => {
        const p = principalOf(request);
        const stored: string[] = [];
        try {
          const expense = await createExpense(scopeOf(request), p, request.body, receiptOf(request, stored));
          return reply.status(201).send(expense);
        } catch (err) {
          await removeAll(stored);
          throw err;
        }
      },
    );

    app.get(
      '/:id',
      {
        schema: { tags, params: IdParams, response: { 200: Expense, ...errorResponses(401, 403, 404) } },
      },
      async (request) => {
        return getExpense(scopeOf(request), principalOf(request), request.params.id);
      },
    );

    app.put(
      '/:id',
      {
        config: { auth: WRITERS, perMinute: 50, uploadLimit: RECEIPT_MAX_BYTES },
        preValidation: readForm,
        schema: {
          tags,
          consumes: ['application/json', 'multipart/form-data'],
          params: IdParams,
          body: UpdateExpenseBody,
          response: { 200: Expense, ...errorResponses(400, 401, 403, 404, 413, 422, 500, 503) },
        },
      },
      async (request) => {
        const p = principalOf(request);
        const stored: string[] = [];
        try {
          const { expense, replacedReceipt } = await updateExpense(
            scopeOf(request),
            p,
            request.params.id,
            request.body,
            receiptOf(request, stored),
          );
          await removeAll([replacedReceipt]);
          return expense;
        } catch (err) {
          await removeAll(stored);
          throw err;
        }
      },
    );

    app.delete(
      '/:id',
      {
        config: { auth: APPROVERS, perMinute: 10 },
        schema: {
          tags,
          params: IdParams,
          response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request, reply) => {
        const receipt = await deleteExpense(scopeOf(request), request.params.id);
        await removeAll([receipt]);
        return reply.status(204).send(null);
      },
    );

    app.patch(
      '/:id/approve',
      {
        config: { auth: APPROVERS, perMinute: 50 },
        schema: { tags, params: IdParams, response: { 200: Expense, ...errorResponses(400, 401, 403, 404) } },
      },
      async (request) => {
        return approveExpense(scopeOf(request), principalOf(request), request.params.id);
      },
    );

    app.patch(
      '/:id/reject',
      {
        config: { auth: APPROVERS, perMinute: 50 },
        // The body is optional: a PATCH without one rejects without a reason.
        preValidation: async (request) => {
          request.body ??= {};
        },
        schema: {
          tags,
          params: IdParams,
          body: RejectBody,
          response: { 200: Expense, ...errorResponses(400, 401, 403, 404, 422) },
        },
      },
      async (request) => {
        return rejectExpense(scopeOf(request), principalOf(request), request.params.id, request.body);
      },
    );

    app.patch(
      '/:id/pay',
      {
        config: { auth: EXPENSE_PAYERS, perMinute: 50 },
        schema: {
          tags,
          params: IdParams,
          body: PayBody,
          response: { 200: Expense, ...errorResponses(400, 401, 403, 404, 422) },
        },
      },
      async (request) => {
        return payExpense(scopeOf(request), principalOf(request), request.params.id, request.body);
      },
    );

    app.get(
      '/:id/receipt',
      {
        schema: { tags, params: IdParams, response: { 200: FileResponse, ...errorResponses(401, 403, 404) } },
      },
      async (request, reply) => {
        const row = await findExpenseReceipt(scopeOf(request), request.params.id);
        const file = row.receipt_key ? await receipts.storage.get(row.receipt_key) : null;
        if (!row.receipt_key || !row.receipt_content_type || !file)
          throw new AppError('SVC-9002', { receipt: ['the expense has no receipt'] });
        return reply
          .type(row.receipt_content_type)
          .header('content-disposition', `inline; filename="${row.expense_number}.${row.receipt_key.split('.').pop()}"`)
          .header('cache-control', 'private, no-store')
          .send(file);
      },
    );
  };
}
