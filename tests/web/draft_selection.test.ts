import { expect, test } from "vitest";
import { batchDeleteOutcome, generationPlan, keepPresent, toggled } from "../../web/src/lib/draftSelection.ts";

test("drafts that left the list leave the selection; an untouched selection stays the same set", () => {
  const selected = new Set([1, 2, 3]);
  expect([...keepPresent(selected, [{ id: 1 }, { id: 3 }])]).toEqual([1, 3]);
  expect(keepPresent(selected, [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }])).toBe(selected);
});

test("ticking and unticking a draft", () => {
  expect([...toggled(new Set([1]), 2, true)]).toEqual([1, 2]);
  expect([...toggled(new Set([1, 2]), 1, false)]).toEqual([2]);
});

test("a batch delete counts deleted, skipped (still planned) and failed drafts apart", () => {
  const planned = new Error("planned");
  const results: PromiseSettledResult<unknown>[] = [
    { status: "fulfilled", value: undefined },
    { status: "rejected", reason: planned },
    { status: "rejected", reason: new Error("network") },
    { status: "fulfilled", value: undefined },
  ];
  expect(batchDeleteOutcome([10, 11, 12, 13], results, (reason) => reason === planned)).toEqual({
    deleted: [10, 13],
    skipped: 1,
    failed: 1,
  });
});

test("generate text: nothing chosen, too many, ask before replacing text, or start at once, in the list's order", () => {
  const drafts = [{ id: 3, excerpt: "" }, { id: 1, excerpt: "Has text" }, { id: 2, excerpt: "" }];
  expect(generationPlan(drafts, new Set(), 30)).toEqual({ kind: "none" });
  expect(generationPlan(drafts, new Set([1, 2, 3]), 2)).toEqual({ kind: "tooMany" });
  expect(generationPlan(drafts, new Set([2, 3]), 30)).toEqual({ kind: "start", ids: [3, 2], withContent: 0 });
  expect(generationPlan(drafts, new Set([1, 2]), 30)).toEqual({ kind: "confirm", ids: [1, 2], withContent: 1 });
});
