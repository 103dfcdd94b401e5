/*
 * web/src/lib/lateness.ts: a post awaiting approval past its time is late, by whole minutes
 * from the server's due time; nothing else is late; the words come from both dictionaries.
 */
import { expect, test } from "vitest";
import { lateText, minutesLate } from "../../web/src/lib/lateness.ts";
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
