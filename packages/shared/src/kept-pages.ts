/**
 * List pages kept in this instance's memory as the JSON text of their response, each with the
 * version of the data it was computed at. A request sends the version of the page it holds to the
 * database, which computes the page again only when the data changed since, in the same statement
 * that reads the version: every request still reads the version after its caller was checked, so a
 * page is never older than the data and another instance's writes are seen at once. Callers build
 * the key from the tenant or user and every input of the page, so a page is only sent for its own
 * owner and query.
 *
 * Used by accounting's invoice list (InvoiceListCache, issue 9) and remittance's history (issue 31).
 * Bounded: at most `maxEntries` pages, the least recently used dropped first, none over `maxChars`.
 */
export class KeptPages {
  private readonly pages = new Map<string, { version: string; text: string }>();

  constructor(
    private readonly maxEntries = 500,
    private readonly maxChars = 64 * 1024,
  ) {}

  get(key: string): { version: string; text: string } | undefined {
    const entry = this.pages.get(key);
    if (entry) {
      // Most recently used last (a Map keeps insertion order).
      this.pages.delete(key);
      this.pages.set(key, entry);
    }
    return entry;
  }

  set(key: string, version: string, text: string): void {
    this.pages.delete(key);
    if (text.length > this.maxChars) return;
    this.pages.set(key, { version, text });
    if (this.pages.size > this.maxEntries) this.pages.delete(this.pages.keys().next().value!);
  }

  get size(): number {
    return this.pages.size;
  }
}
