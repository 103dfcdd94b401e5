/*
 * No update is lost between its arrival and its handling (bot/inbox.ts), in polling and in
 * webhook mode: the real process (main/bot.ts, main/api.ts) receives the approver's press and
 * is killed with SIGKILL before handling it (PRESSA_TEST_HOLD_UPDATES_MS holds every update
 * between storing and handling, so the kill lands there); Telegram has been told the update
 * arrived. After a restart the press counts, once.
 */
import { Api } from "grammy";
import { afterAll, beforeAll, expect, test } from "vitest";
import { freePort } from "../../scripts/postgres.ts";
import { buttonData, postReaches, projectWithChannel, sentForApproval } from "../helpers/publishing.ts";
import { type Stack, startStack, webhookSecret } from "../helpers/stack.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ telegram: true });
});
afterAll(() => stack.close());

const HOLD = { PRESSA_TEST_HOLD_UPDATES_MS: "600000" };

/** The stored update carrying this callback query, once stored. */
const storedPress = async (queryId: string) =>
  (await stack.sql<{ updateId: string; handledAt: string | null }[]>`
    select update_id, handled_at from app_private.telegram_updates where body -> 'callback_query' ->> 'id' = ${queryId}`)[0];

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function killed(child: ReturnType<Stack["spawnProcess"]>) {
  child.kill("SIGKILL");
  await child.status;
}

/** The approver's press on a fresh preview: its query id and the post's. */
async function pressApprove(draftTitle: string) {
  const telegram = stack.telegram!;
  const p = await projectWithChannel(stack, { drafts: [draftTitle] });
  const { postId, preview } = await sentForApproval(stack, p, p.drafts[0].id, 3_600_000);
  return { p, postId, press: () => telegram.userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", postId)) };
}

/** After the restart: the press answered once, the post approved once. */
async function countedOnce(queryId: string, postId: number) {
  const telegram = stack.telegram!;
  const answer = await telegram.waitFor(() => telegram.callbackAnswer(queryId), 30_000);
  expect(answer.text).toMatch(/Одобрено/);
  await postReaches(stack, postId, "approved");
  await until("the update marked handled", async () => (await storedPress(queryId))?.handledAt != null);
  expect(telegram.requests.filter((r) => r.method === "answerCallbackQuery" && r.params.callback_query_id === queryId && r.status === 200))
    .toHaveLength(1);
}

test("polling: the bot killed after storing a press and before handling it; after the restart the press counts once", async () => {
  const telegram = stack.telegram!;
  const { postId, press } = await pressApprove("Polled");
  const first = stack.spawnProcess("main/bot.ts", { env: HOLD });
  try {
    await until("the bot polls", () => telegram.requests.some((r) => r.method === "getUpdates"));
    const queryId = press();
    await until("the press stored", async () => (await storedPress(queryId)) !== undefined);
    // Telegram is told it arrived: the next getUpdates moves the offset past it
    await until("the offset moved past it", () => telegram.pendingUpdates().every((u) => u.callback_query?.id !== queryId));
    await killed(first);
    expect((await storedPress(queryId))!.handledAt).toBeNull();
    expect((await stack.sql`select status from app_public.posts where id = ${postId}`)[0].status).toBe("scheduled");
    expect(telegram.callbackAnswer(queryId)).toBeUndefined();

    const second = stack.spawnProcess("main/bot.ts");
    try {
      await countedOnce(queryId, postId);
    } finally {
      second.kill("SIGTERM");
      await second.status;
    }
  } finally {
    await killed(first).catch(() => {});
  }
}, 90_000);

test("webhook: the API killed after answering Telegram's push of a press and before handling it; after the restart it counts once", async () => {
  const telegram = stack.telegram!;
  const { postId, press } = await pressApprove("Pushed");
  const port = await freePort();
  const env = { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, TELEGRAM_WEBHOOK_SECRET: webhookSecret() };
  const api = new Api(telegram.token, { apiRoot: telegram.apiRoot });
  const first = stack.spawnProcess("main/api.ts", { env: { ...env, ...HOLD } });
  try {
    await until("the webhook registered", async () => String((await api.getWebhookInfo()).url).startsWith(env.PUBLIC_URL));
    const queryId = press();
    await until("the press stored", async () => (await storedPress(queryId)) !== undefined);
    const updateId = Number((await storedPress(queryId))!.updateId);
    await until("Telegram's push answered 200", () => telegram.webhookDeliveries.some((d) => d.status === 200 && d.updateId === updateId));
    await killed(first);
    expect((await storedPress(queryId))!.handledAt).toBeNull();
    expect(telegram.callbackAnswer(queryId)).toBeUndefined();

    const second = stack.spawnProcess("main/api.ts", { env });
    try {
      await countedOnce(queryId, postId);
      // Telegram had its 200: it never pushed the press again
      expect(telegram.webhookDeliveries.filter((d) => d.updateId === updateId)).toHaveLength(1);
    } finally {
      second.kill("SIGTERM");
      await second.status;
    }
  } finally {
    await killed(first).catch(() => {});
    await api.deleteWebhook();
  }
}, 90_000);
