/*
 * The Statistics tables' CSV as a spreadsheet opens it: no cell the owner wrote runs as a
 * formula, in a "," locale or a ";" one (Excel in Russian splits at semicolons).
 */
import { expect, test } from "vitest";
import { csvField, toCsv } from "../../web/src/components/Stats/csv.ts";

test("a semicolon is quoted, so a ';' locale keeps the cell whole", () => {
  expect(csvField("a;=1+1")).toBe('"a;=1+1"');
  expect(csvField("plain text")).toBe("plain text");
  expect(csvField('say "hi", twice\r\nok')).toBe('"say ""hi"", twice\r\nok"');
});

test("every formula lead is neutralised, also after leading spaces and line breaks", () => {
  for (const lead of ["=", "+", "-", "@", "\t", "\r", "＝", "＋", "－", "＠"]) {
    expect(csvField(`${lead}1+1`).replace(/^"/, ""), JSON.stringify(lead)).toMatch(/^'/);
    expect(csvField(`   ${lead}1+1`).replace(/^"/, ""), JSON.stringify(lead)).toMatch(/^'/);
  }
  expect(csvField("\n=HYPERLINK(\"x\")")).toBe('"\'\n=HYPERLINK(""x"")"');
  expect(csvField("\u00A0=1")).toBe("'\u00A0=1");
  // text that only holds a sign later is text
  expect(csvField("Sale -50%")).toBe("Sale -50%");
  // numbers stay numbers, a negative one included
  expect(csvField(-3)).toBe("-3");
});

test("every cell of a table is guarded, not only the first column", () => {
  const csv = toCsv(["Name", "URL"], [["Ads", "=cmd|' /C calc'!A0"], ["x;y", "@SUM(A1)"]]);
  expect(csv).toBe("Name,URL\r\nAds,'=cmd|' /C calc'!A0\r\n\"x;y\",'@SUM(A1)\r\n");
});
