// @vitest-environment happy-dom
/*
 * The move form of a post awaiting approval (the post's details): it opens filled with a time
 * the owner can keep, on the project's clock, never with an empty date.
 */
import { fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import type { Post } from "../../contract/posts.ts";
import { AwaitingActions } from "../../web/src/components/PostDetailsDialog/AwaitingActions.tsx";
import { renderIn } from "./render.tsx";

// 20:50 in Moscow
beforeEach(() => void vi.useFakeTimers({ now: Date.parse("2026-11-28T17:50:00Z"), toFake: ["Date"] }));
afterEach(() => void vi.useRealTimers());

const awaiting = (scheduledFor: string) => ({ id: 7, status: "scheduled", scheduledFor }) as Post;

async function openMove(language: "ru" | "en", post: Post) {
  await renderIn(language, <AwaitingActions projectId={1} post={post} timeZone="Europe/Moscow" />);
  fireEvent.click(await screen.findByRole("button", { name: language === "ru" ? "Перенести" : "Move" }));
  const field = (name: string) => (screen.getByLabelText(name, { exact: false }) as HTMLInputElement).value;
  return language === "ru" ? { date: field("Дата"), time: field("Время") } : { date: field("Date"), time: field("Time") };
}

test("a post 21 minutes late opens its move at 21:15, the next quarter hour at least 15 minutes away (ru)", async () => {
  expect(await openMove("ru", awaiting("2026-11-28T17:29:00.000Z"))).toEqual({ date: "2026-11-28", time: "21:15" });
});

test("a post still ahead opens its move at its own time (en)", async () => {
  expect(await openMove("en", awaiting("2026-11-28T19:37:00.000Z"))).toEqual({ date: "2026-11-28", time: "22:37" });
});

test("a late post near midnight opens its move on the next day in the project's zone (en)", async () => {
  vi.setSystemTime(Date.parse("2026-11-28T20:52:00Z")); // 23:52 in Moscow
  expect(await openMove("en", awaiting("2026-11-28T20:29:00.000Z"))).toEqual({ date: "2026-11-29", time: "00:15" });
});
