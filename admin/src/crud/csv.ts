/** One CSV cell: quoted when it holds a separator, a quote or a line break; a formula-like text is kept as text. */
function cell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) && !/^-?\d+(\.\d+)?$/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Marks the file as UTF-8: without it, spreadsheet programs read it in their own code page ('dimensÃµes'). */
const BYTE_ORDER_MARK = '\uFEFF';

/** Rows of texts as CSV (RFC 4180: comma separated, CRLF line ends), starting with UTF-8's byte-order mark. */
export function toCsv(rows: string[][]): string {
  return BYTE_ORDER_MARK + rows.map((row) => row.map(cell).join(',')).join('\r\n');
}
