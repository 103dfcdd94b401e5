/*
 * CSV export of the Statistics tables, made in the browser (RFC 4180: fields with a quote,
 * comma or line break are quoted, quotes doubled). A spreadsheet runs a cell that starts with
 * = + - @ (or a tab or carriage return) as a formula, so such text gets a leading apostrophe:
 * a post title or a link name is the owner's text, and "=HYPERLINK(…)" must stay text.
 * Numbers are written as they are (a negative count is a number, not a formula).
 */
export type CsvCell = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvField(value: CsvCell): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
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
