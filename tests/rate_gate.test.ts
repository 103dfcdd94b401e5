import { expect, test } from "vitest";
import { RateGate } from "../core/telegram/rate_gate.ts";

test("a gate never lets more than `limit` passes into any window", async () => {
  const gate = new RateGate(3, 300);
  // The moments the gate counted: a caller resumes a little after its pass, and a clock read
  // then can land in the next millisecond for one pass and not for another.
  const times = await Promise.all(Array.from({ length: 9 }, () => gate.take()));
  times.sort((a, b) => a - b);
  for (let i = 3; i < times.length; i++) expect(times[i] - times[i - 3]).toBeGreaterThanOrEqual(300);
  expect(times[8] - times[0]).toBeLessThan(1000); // and it keeps going at the limit
});

test("an even gate spaces passes, so a queue never goes out in a burst", async () => {
  const gate = new RateGate(5, 500, { evenly: true });
  const times: number[] = [];
  for (let i = 0; i < 6; i++) {
    await gate.take();
    times.push(Date.now());
  }
  // 100 ms apart on average; a late timer may catch up one slot, never more
  expect(times[5] - times[0]).toBeGreaterThanOrEqual(390);
  for (let i = 2; i < times.length; i++) expect(times[i] - times[i - 2]).toBeGreaterThanOrEqual(95);
});
