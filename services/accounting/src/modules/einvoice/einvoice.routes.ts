import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { errorResponses, IdParams } from '../../lib/schemas.js';
import { principalOf, scopeOf } from '../../plugins/auth.js';
import { todayIso } from '../invoices/invoice-status.js';
import type { InvoiceDeps } from '../invoices/invoice-transitions.js';
import { invoicePaymentCode, invoiceUbl } from './einvoice.service.js';

const PngResponse = Type.Unsafe<Buffer>({
  type: 'string',
  format: 'binary',
  description: 'image/png: RS the NBS IPS QR code, HR the HUB-3A PDF417 barcode',
});
const XmlResponse = Type.Unsafe<string>({
  type: 'string',
  description: 'application/xml: UBL 2.1 (RS: SEF srbdt; HR: CIUS-HR 2025 with the PDF embedded; BA: EN 16931)',
});

/** E-invoice documents of an invoice, under /api/v1/invoices (E3, E4). */
export function einvoiceRoutes(deps: InvoiceDeps) {
  const tags = ['E-invoices'];
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const sendXml = (reply: FastifyReply, xml: string, number: string) =>
      reply
        .type('application/xml; charset=utf-8')
        .header('content-disposition', `attachment; filename="${number}.xml"`)
        .header('cache-control', 'private, no-store')
        .send(xml);

    // The invoice's UBL and its credit note's: the same route but for the document kind.
    for (const [url, kind] of [
      ['/:id/ubl', 'invoice'],
      ['/:id/credit-note/ubl', 'credit-note'],
    ] as const) {
      app.get(
        url,
        {
          config: { perMinute: 60 },
          schema: {
            tags,
            params: IdParams,
            response: { 200: XmlResponse, ...errorResponses(400, 401, 403, 404, 422) },
          },
        },
        async (request, reply) => {
          const { xml, number } = await invoiceUbl(
            scopeOf(request),
            deps,
            principalOf(request),
            request.params.id,
            kind,
            todayIso(),
          );
          return sendXml(reply, xml, number);
        },
      );
    }

    app.get(
      '/:id/payment-code',
      {
        config: { perMinute: 60 },
        schema: {
          tags,
          params: IdParams,
          response: { 200: PngResponse, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request, reply) => {
        const code = await invoicePaymentCode(scopeOf(request), principalOf(request), request.params.id, todayIso());
        return reply
          .type('image/png')
          .header('content-disposition', `inline; filename="${code.number}-${code.kind}.png"`)
          .header('cache-control', 'private, no-store')
          .send(code.png);
      },
    );
  };
}
