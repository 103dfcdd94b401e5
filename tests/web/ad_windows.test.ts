/*
 * The schedule form's ad windows (web/src/lib/adWindows.ts) against the cases the server's
 * rule is held to (tests/cases/ad_window_cases.ts, run in SQL by tests/sql/ad_window.test.ts),
 * from calendar rows as the API answers them.
 */
import { describe, expect, test } from "vitest";
import { AD_WINDOW_CASES } from "../cases/ad_window_cases.ts";
import { ApiRequestError } from "../../web/src/api/fetcher.ts";
import { adWindowAt, adWindowOverlapping, type AdWindowSource } from "../../web/src/lib/adWindows.ts";
import { refusalErrors } from "../../web/src/lib/scheduleForm.ts";

const BASE = Date.parse("2027-03-10T09:00:00.000Z");
const at = (minutes: number) => new Date(BASE + minutes * 60_000);

describe("ad windows, the server's cases", () => {
  test.each(AD_WINDOW_CASES)("$name", ({ ads, post, expected }) => {
    const rows: AdWindowSource[] = ads.map((ad, index) => {
      const from = at(ad.sentAt ?? ad.plannedAt);
      return {
        id: index + 1,
        title: ad.title,
        status: ad.status ?? (ad.sentAt !== undefined ? "published" : post.act === "due" ? "approved" : "draft"),
        adState: {
          topFrom: from.toISOString(),
          topUntil: new Date(from.getTime() + ad.topMinutes * 60_000).toISOString(),
          removeAt: null,
          removedAt: null,
          removalRemindedAt: null,
        },
      };
    });
    const window = post.act === "schedule" && post.kind === "ad"
      ? adWindowOverlapping(at(0), at(post.topMinutes ?? 0), rows) ?? adWindowAt(at(0), rows)
      : adWindowAt(at(0), rows);
    expect(window && { title: window.title, until: window.until.getTime() }).toEqual(expected && { title: expected.title, until: at(expected.until).getTime() });
  });

  test("a post's own window is not in its way, and a row that is no ad has none", () => {
    const rows: AdWindowSource[] = [
      { id: 7, title: "Coffee", status: "draft", adState: { topFrom: at(0).toISOString(), topUntil: at(60).toISOString(), removeAt: null, removedAt: null, removalRemindedAt: null } },
      { id: 8, title: "Mine", status: "draft", adState: null },
    ];
    expect(adWindowAt(at(10), rows, 7)).toBeNull();
    expect(adWindowAt(at(10), rows)?.title).toBe("Coffee");
  });
});

test("the server's refusal of a time in a window is said under the time, like a past time", () => {
  const refused = (code: string) => refusalErrors(new ApiRequestError(409, "", { code, message: "" }), "words");
  expect(refused("ads.topConflict")).toEqual({ form: "words" });
  expect(refused("ads.pinOverWindow")).toEqual({ form: "words" });
});
