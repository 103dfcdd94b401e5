/*
 * Notices to an approver's private chat (failure notices, retractions) wait for that chat's
 * one message a second in the approver's queue, holding one worker slot: 40 failure notices
 * for one account's approver do not delay another account's sign-in mail or its post.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { anotherAccountServed, projectWithChannel } from "../helpers/publishing.ts";
import { type Stack, startStack } from "../helpers/stack.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ bot: true });
});
afterAll(() => stack.close());

test("40 failure notices to one approver: another account's sign-in mail within 2 s and its post on time", async () => {
  const telegram = stack.telegram!;
  const busy = await projectWithChannel(stack);
  const other = await projectWithChannel(stack, { drafts: ["On time"] });
  // 40 of the busy account's posts fail at once (as when the bot loses its right to post)
  const failed = await stack.sql<{ id: number }[]>`
    insert into app_public.posts (project_id, title, content, status, scheduled_for)
    select ${busy.project.id}, 'Failed ' || i, 'Failed ' || i, 'failed', now() from generate_series(1, 40) i returning id`;
  await stack.sql`select app_private.notify_admin(id, 'failed') from unnest(${failed.map((p) => p.id)}::bigint[]) id`;
  // the notices are under way, one a second into the approver's chat
  await telegram.waitFor(() => telegram.messages(busy.admin.id).length >= 3, 10_000);

  await anotherAccountServed(stack, other, other.drafts[0].id, { mailMs: 2_000, lateMs: 5_000 });
  // and the notices were still going out, one at a time, all along
  expect(telegram.messages(busy.admin.id).length).toBeLessThan(40);
}, 90_000);
