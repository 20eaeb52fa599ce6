/**
 * CSV as a spreadsheet reads it safely (docs/usage.md "CSV"): a cell that begins with `=`, `+`,
 * `-` or `@` (or a tab or carriage return, which some spreadsheets skip before one) would be run as
 * a formula, so it is prefixed with `'` (OWASP's CSV injection rule); a cell holding a comma, a
 * quote or a line break is quoted (RFC 4180), its quotes doubled.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvLine = (cells: readonly (string | number | null)[]): string =>
  `${cells.map(csvCell).join(',')}\r\n`;
