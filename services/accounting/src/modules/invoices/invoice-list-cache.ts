import { KeptPages } from '@app/shared/kept-pages';
import type { PageRequest } from '../../lib/pagination.js';
import type { InvoiceFilters } from './invoices.repository.js';
import type { InvoiceSort } from './invoices.schemas.js';

/**
 * GET /invoices pages kept in this instance's memory (issue 9), each with the version of its
 * organization's invoices it was computed at (migration 20261125000100). A request sends the
 * version of the page it holds, and the database computes the page again only when the invoices
 * changed since (invoices.repository.ts listInvoicesJson): every request still reads the version
 * in the database, after its caller's session was checked, so a page is never older than the
 * invoices and another instance's writes are seen at once. The key holds the organization and
 * every input of the page, so a page is only sent for its own organization and query.
 * Bounded as KeptPages (a page of 100 invoices is about 25,000 characters; the default 64 KB cap).
 */
export class InvoiceListCache extends KeptPages {
  static key(orgId: string, f: InvoiceFilters, page: PageRequest<InvoiceSort>, today: string): string {
    // Every part is validated before it gets here (uuid, dates, enums, integers): no separator inside.
    return [
      orgId,
      today,
      page.sort,
      page.order,
      page.perPage,
      page.offset,
      f.customerId ?? '',
      f.fromDate ?? '',
      f.toDate ?? '',
      f.status ?? '',
      // Last: the only free text (a NUL in it cannot make two keys alike when nothing follows it).
      f.search ?? '',
    ].join('\u0000');
  }
}
