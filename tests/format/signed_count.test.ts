/* A change in a count, written once for the Statistics page, the home cards and the weekly mail. */
import { expect, test } from "vitest";
import { signedCount } from "../../contract/counts.ts";

test("a gain has a plus, a loss a minus sign (not a hyphen), no change is a bare 0, in the reader's digits", () => {
  const ru = new Intl.NumberFormat("ru-RU").format;
  const en = new Intl.NumberFormat("en-GB").format;
  expect(signedCount(1234, en)).toBe("+1,234");
  expect(signedCount(-3, en)).toBe("−3");
  expect(signedCount(-3, en)).not.toContain("-");
  expect(signedCount(0, en)).toBe("0");
  expect(signedCount(1234, ru)).toBe(`+${ru(1234)}`);
  expect(signedCount(-1234, ru)).toBe(`−${ru(1234)}`);
});
