/** One CSV cell: quoted when it holds a separator, a quote or a line break; a formula-like text is kept as text. */
function cell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) && !/^-?\d+(\.\d+)?$/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Rows of texts as CSV (RFC 4180: comma separated, CRLF line ends). */
export function toCsv(rows: string[][]): string {
  return rows.map((row) => row.map(cell).join(',')).join('\r\n');
}
