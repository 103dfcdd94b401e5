/*
 * CSV export of the Statistics tables, made in the browser (RFC 4180: fields with a quote,
 * comma or line break are quoted, quotes doubled). Excel in locales whose list separator is
 * ";" (Russian among them) splits a line at semicolons, so a field with one is quoted too:
 * unquoted, `a;=1+1` opened as the cells `a` and the formula `=1+1`.
 * A spreadsheet runs a cell that starts with = + - @ (or a tab or carriage return, or their
 * full-width forms, which some locales read the same) as a formula, leading spaces and line
 * breaks skipped, so such text gets a leading apostrophe: a post title or a link name is the
 * owner's text, and "=HYPERLINK(…)" must stay text. Numbers are written as they are (a
 * negative count is a number, not a formula).
 */
export type CsvCell = string | number | boolean | null | undefined;

const FORMULA_START = /^[\s\u00A0\u3000]*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
const NEEDS_QUOTES = /[",;\r\n]/;

export function csvField(value: CsvCell): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return [header, ...rows].map((row) => row.map(csvField).join(",")).join("\r\n") + "\r\n";
}

/** Saves the text as a .csv file; the byte-order mark lets Excel read UTF-8 (Cyrillic, emoji). */
export function downloadCsv(fileName: string, csv: string) {
  const url = URL.createObjectURL(new Blob(["\uFEFF", csv], { type: "text/csv;charset=utf-8" }));
  const anchor = document.createElement("a");
  anchor.href = url;
  anchor.download = fileName;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // the download has started from the click; the address is no longer needed
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
