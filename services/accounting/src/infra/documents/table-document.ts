/**
 * A document made of tables: a title, label/value lines under it, and blocks of rows under their columns. Cells
 * hold raw values (decimal strings with '.', ISO dates); the PDF formats the money and number columns in the
 * document's language, a CSV writes them as they are. The reports build these (`modules/reports/report-document.ts`).
 */
export type ColumnKind = 'text' | 'money' | 'number';
export interface TableColumn {
  label: string;
  kind: ColumnKind;
  /** Relative width in the PDF. */
  width: number;
}
export interface TableRow {
  cells: string[];
  role?: 'total' | 'grand';
}
export interface TableBlock {
  title: string;
  columns: TableColumn[];
  rows: TableRow[];
}
export interface TableDocument {
  title: string;
  meta: Array<[string, string]>;
  blocks: TableBlock[];
}
