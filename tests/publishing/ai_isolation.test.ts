/*
 * AI jobs cannot starve the others: twenty content-generation jobs against a slow AI (5 s
 * a call) hold only the AI runner's slots, while a sign-in mail and a due publication go
 * through the worker's other runner on time.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { buttonData, projectWithChannel, sentForApproval } from "../helpers/publishing.ts";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ bot: true, openai: true, env: { AI_CALLS_PER_MINUTE: "1000" } });
});
afterAll(async () => {
  stack.openai!.setDelay(0);
  await stack.close();
});

test("20 slow generation jobs: a sign-in mail still arrives within 5 s and a due post goes out on time", async () => {
  const telegram = stack.telegram!;
  // the channel's project first, so its own setup does not wait on anything
  const p = await projectWithChannel(stack, { drafts: ["On time"] });
  // two busy accounts: each account's AI jobs are one queue, so it takes two to fill both AI slots
  const busy = [await stack.signIn(uniqueEmail("busy")), await stack.signIn(uniqueEmail("busy"))];
  stack.openai!.setDelay(5_000);
  for (let i = 0; i < 20; i++) {
    const { cookie } = busy[i % 2];
    const project = (await stack.call("POST", "/api/projects", { name: `Busy ${i}`, adminHandle: "busy_admin" }, cookie)).json;
    const drafts = (await stack.call("POST", `/api/projects/${project.id}/drafts/bulk`, { titles: ["A", "B", "C"] }, cookie)).json;
    const job = await stack.call("POST", `/api/projects/${project.id}/drafts/generate-content`, { draftIds: drafts.map((d: { id: number }) => d.id) }, cookie);
    expect(job.status).toBe(201);
  }
  // the AI runner is busy: its slots wait on the slow provider
  await expect.poll(() => stack.openai!.journal.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);

  const email = uniqueEmail("waiting");
  const asked = Date.now();
  expect((await stack.call("POST", "/api/auth/request-otp", { email })).status).toBe(200);
  await stack.smtp.waitForMail(email, 1, 5_000);
  expect(Date.now() - asked).toBeLessThan(5_000);

  const { postId, preview } = await sentForApproval(stack, p, p.drafts[0].id, 4_000);
  const query = telegram.userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", postId));
  await telegram.waitFor(() => telegram.callbackAnswer(query), 5_000);
  const [{ scheduledFor }] = await stack.sql`select scheduled_for from app_public.posts where id = ${postId}`;
  const inChannel = await telegram.waitFor(() => telegram.messages(p.channel.id)[0], 15_000);
  expect(inChannel.text).toBe("On time");
  expect(Date.now() - Date.parse(scheduledFor)).toBeLessThan(2_000);
  // and the AI jobs were still running all along, two at a time
  expect(stack.openai!.journal.length).toBeLessThan(20);
}, 90_000);
