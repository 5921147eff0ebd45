import { Readable } from 'node:stream';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { reportLabelsFor } from '../../infra/documents/report-labels.js';
import { renderReportPdf } from '../../infra/documents/report-pdf.js';
import { errorResponses } from '../../lib/schemas.js';
import { type Principal, principalOf, scopeOf } from '../../plugins/auth.js';
import { renderReportCsv } from './report-csv.js';
import { organizationToday } from './report-dates.js';
import {
  balanceSheetDocument,
  cashFlowDocument,
  dashboardDocument,
  profitLossDocument,
  type ReportDocument,
  trialBalanceDocument,
  vatDocument,
} from './report-document.js';
import {
  AsOfQuery,
  BalanceSheet,
  CashFlow,
  Dashboard,
  DashboardQuery,
  PeriodQuery,
  ProfitLoss,
  type ReportFormat,
  reportResponse,
  TrialBalance,
  Vat,
  VatQuery,
} from './reports.schemas.js';
import {
  balanceSheet,
  cashFlow,
  checkPeriod,
  dashboard,
  getTrialBalance,
  parseVatReport,
  profitLoss,
  type ReportOrg,
  vatReport,
  vatReportChunks,
  vatReportText,
} from './reports.service.js';

const orgOf = (p: Principal): ReportOrg => ({
  id: p.orgId,
  name: p.organization.name,
  baseCurrency: p.organization.baseCurrency,
  country: p.organization.country,
  language: p.organization.language,
});

/**
 * Sends a report as JSON, or as a PDF (organization's language) or CSV attachment named
 * <report>-<dates>.<ext>.
 */
async function answer<R>(
  reply: FastifyReply,
  org: ReportOrg,
  format: ReportFormat | undefined,
  report: R,
  toDocument: (r: R, labels: ReturnType<typeof reportLabelsFor>) => ReportDocument,
  fileStem: string,
) {
  if (!format || format === 'json') return report;
  const file =
    format === 'pdf'
      ? await renderReportPdf(toDocument(report, reportLabelsFor(org.language)), org.name, org.language)
      : renderReportCsv(toDocument(report, reportLabelsFor('en')));
  return reply
    .type(format === 'pdf' ? 'application/pdf' : 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileStem}.${format}"`)
    .header('cache-control', 'private, no-store')
    .send(file);
}

/** /api/v1/reports (spec "Reports"; A16). All roles; dashboard 100 requests a minute, the others 50. */
export function reportsRoutes() {
  const tags = ['Reports'];
  const errors = errorResponses(401, 403, 422, 429);
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/dashboard',
      {
        config: { perMinute: 100 },
        schema: {
          tags,
          querystring: DashboardQuery,
          response: {
            200: reportResponse(Dashboard, "Dashboard: this month to date in the organization's time zone"),
            ...errors,
          },
        },
      },
      async (request, reply) => {
        const org = orgOf(principalOf(request));
        const today = organizationToday(org.country);
        const report = await dashboard(scopeOf(request), org, today);
        return answer(reply, org, request.query.format, report, dashboardDocument, `dashboard-${today}`);
      },
    );

    app.get(
      '/profit-loss',
      {
        config: { perMinute: 50 },
        schema: {
          tags,
          querystring: PeriodQuery,
          response: { 200: reportResponse(ProfitLoss, 'Profit and loss over from..to (inclusive)'), ...errors },
        },
      },
      async (request, reply) => {
        const org = orgOf(principalOf(request));
        const period = checkPeriod(request.query);
        const report = await profitLoss(scopeOf(request), org, period);
        return answer(
          reply,
          org,
          request.query.format,
          report,
          profitLossDocument,
          `profit-loss-${period.from}-${period.to}`,
        );
      },
    );

    app.get(
      '/balance-sheet',
      {
        config: { perMinute: 50 },
        schema: {
          tags,
          querystring: AsOfQuery,
          response: { 200: reportResponse(BalanceSheet, 'Balances at the end of date'), ...errors },
        },
      },
      async (request, reply) => {
        const org = orgOf(principalOf(request));
        const date = request.query.date ?? organizationToday(org.country);
        const report = await balanceSheet(scopeOf(request), org, date);
        return answer(reply, org, request.query.format, report, balanceSheetDocument, `balance-sheet-${date}`);
      },
    );

    app.get(
      '/cash-flow',
      {
        config: { perMinute: 50 },
        schema: {
          tags,
          querystring: PeriodQuery,
          response: { 200: reportResponse(CashFlow, 'Cash and bank movements over from..to'), ...errors },
        },
      },
      async (request, reply) => {
        const org = orgOf(principalOf(request));
        const period = checkPeriod(request.query);
        const report = await cashFlow(scopeOf(request), org, period);
        return answer(
          reply,
          org,
          request.query.format,
          report,
          cashFlowDocument,
          `cash-flow-${period.from}-${period.to}`,
        );
      },
    );

    app.get(
      '/vat',
      {
        config: { perMinute: 50 },
        schema: {
          tags,
          querystring: VatQuery,
          response: { 200: reportResponse(Vat, 'Output and input VAT over from..to'), ...errors },
        },
      },
      async (request, reply) => {
        const org = orgOf(principalOf(request));
        const period = checkPeriod(request.query);
        const body = await vatReport(scopeOf(request), org, period, request.query.detail);
        const format = request.query.format;
        // The JSON text comes from PostgreSQL in the response schema's shape: sent without parsing
        // and serialising it again (tens of thousands of rows for a long period), in pieces of
        // about 16 kB rather than as one string of up to several MB (vatReportChunks).
        if (!format || format === 'json') {
          const chunks = vatReportChunks(body);
          reply.type('application/json; charset=utf-8');
          if (chunks.length === 1) return reply.send(chunks[0]);
          return reply
            .header(
              'content-length',
              chunks.reduce((n, c) => n + c.length, 0),
            )
            .send(Readable.from(chunks));
        }
        return answer(
          reply,
          org,
          format,
          parseVatReport(vatReportText(body)),
          vatDocument,
          `vat-${period.from}-${period.to}`,
        );
      },
    );

    app.get(
      '/trial-balance',
      {
        config: { perMinute: 50 },
        schema: {
          tags,
          querystring: AsOfQuery,
          response: {
            200: reportResponse(
              TrialBalance,
              'Every account with postings up to date; 500 SVC-6004 when debits and credits differ',
            ),
            ...errorResponses(401, 403, 422, 429, 500),
          },
        },
      },
      async (request, reply) => {
        const org = orgOf(principalOf(request));
        const date = request.query.date ?? organizationToday(org.country);
        const report = await getTrialBalance(scopeOf(request), org, date, request.log);
        return answer(reply, org, request.query.format, report, trialBalanceDocument, `trial-balance-${date}`);
      },
    );
  };
}
