/*
 * web/src/lib/lateness.ts: a post awaiting approval past its time is late, by whole minutes
 * from the server's due time; nothing else is late; the words come from both dictionaries.
 * The move form starts at the post's own time while it is ahead, else at a round quarter hour.
 */
import { expect, test } from "vitest";
import { lateText, minutesLate, suggestedMoveTime } from "../../web/src/lib/lateness.ts";
import { DICTIONARIES, translator } from "../helpers/i18n.ts";

const now = Date.parse("2026-11-28T17:50:00Z");
const due = "2026-11-28T17:29:00.000Z"; // 20:29 in Moscow, read at 20:50

test("only a post awaiting approval past its time is late, by whole minutes", () => {
  expect(minutesLate({ status: "scheduled", scheduledFor: due }, now)).toBe(21);
  expect(minutesLate({ status: "scheduled", scheduledFor: "2026-11-28T17:49:50.000Z" }, now)).toBe(1);
  expect(minutesLate({ status: "scheduled", scheduledFor: "2026-11-28T18:00:00.000Z" }, now)).toBeNull();
  for (const status of ["draft", "approved", "published", "rejected", "failed", "uncertain", "sending"]) {
    expect(minutesLate({ status, scheduledFor: due }, now), status).toBeNull();
  }
});

test("late by minutes, then hours and minutes, in both languages", () => {
  const ru = translator(DICTIONARIES.ru);
  const en = translator(DICTIONARIES.en);
  expect(lateText(ru, 21)).toBe("Опаздывает на 21 мин");
  expect(lateText(en, 21)).toBe("Late by 21 min");
  expect(lateText(ru, 125)).toBe("Опаздывает на 2 ч 5 мин");
  expect(lateText(en, 125)).toBe("Late by 2 h 5 min");
});

/** The suggestion as the form shows it: the project's date and clock, and the instant. */
function suggested(scheduledFor: string, timeZone: string, now: string) {
  const at = suggestedMoveTime(scheduledFor, timeZone, Date.parse(now));
  return { shown: at.toString().slice(0, 16), instant: at.toAbsoluteString() };
}

test("the move form suggests the post's own time while it is still ahead", () => {
  expect(suggested("2026-11-28T19:37:00.000Z", "Europe/Moscow", "2026-11-28T17:50:00Z").shown).toBe("2026-11-28T22:37");
});

test("a late post's move starts at the next round quarter hour at least 15 minutes away, on the project's clock", () => {
  // 20:50 in Moscow: 21:05 at the earliest, so 21:15
  expect(suggested(due, "Europe/Moscow", "2026-11-28T17:50:00Z")).toEqual({ shown: "2026-11-28T21:15", instant: "2026-11-28T18:15:00.000Z" });
  // exactly 15 minutes before a quarter: that quarter; a second later: the next one
  expect(suggested(due, "Europe/Moscow", "2026-11-28T17:45:00Z").shown).toBe("2026-11-28T21:00");
  expect(suggested(due, "Europe/Moscow", "2026-11-28T17:45:01Z").shown).toBe("2026-11-28T21:15");
  // late in the evening the suggestion is tomorrow's date in the project's zone
  expect(suggested(due, "Europe/Moscow", "2026-11-28T20:50:00Z").shown).toBe("2026-11-29T00:15");
  // a zone 5:45 ahead of UTC: 23:35 there, so midnight of the 29th there
  expect(suggested(due, "Asia/Kathmandu", "2026-11-28T17:50:00Z")).toEqual({ shown: "2026-11-29T00:00", instant: "2026-11-28T18:15:00.000Z" });
  // across the spring change in Berlin (02:00 → 03:00): 01:50 + 15 min is 03:05, so 03:15
  expect(suggested("2026-03-29T00:00:00.000Z", "Europe/Berlin", "2026-03-29T00:50:00Z")).toEqual({
    shown: "2026-03-29T03:15",
    instant: "2026-03-29T01:15:00.000Z",
  });
});
