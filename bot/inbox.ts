/*
 * Telegram's updates at least once, handled once. Every update is stored in PostgreSQL
 * (app_public.store_telegram_updates, keyed by update_id) before Telegram is told it arrived:
 * when polling, by the next getUpdates' offset, which moves past an update only once it is
 * stored; by webhook, by the 200 answered only after storing. It is handled from there:
 * claimed (app_public.claim_telegram_updates: one process takes it, the others' drains skip
 * it), handed to the bot's features, and marked handled. A process killed between arrival
 * and handling leaves the update stored, and the next drain of any process takes it up (at
 * once if it was never claimed; after a minute if its claimer died mid-handling). Before,
 * the runner confirmed an update by fetching the next batch while its handler was still
 * running, and a kill then lost the approver's press.
 *
 * Order: one drain hands a chat's updates to the features one after another, chats side by
 * side; two processes may each take one update of a chat, which the guarded SQL transitions
 * every feature ends in make harmless.
 */
import type { Bot } from "grammy";
import type { Update } from "grammy/types";
import type { Sql } from "../core/db.ts";
import type { Log } from "../core/log.ts";

/** How often a process looks for updates left by another (a dead process, a lost drain). */
export const DRAIN_EVERY_MS = 2_000;
const CLAIM_BATCH = 50;

export type UpdateInbox = {
  /** Stores updates (before they are confirmed to Telegram), then handles them in the background. */
  receive(updates: Update[]): Promise<void>;
  /** Handles every stored update nobody handles; resolves when none is left. */
  drain(): Promise<void>;
  /** Drains now and every DRAIN_EVERY_MS until stop(). */
  start(): void;
  stop(): Promise<void>;
};

/** The chat an update belongs to, for handling a chat's updates in order. */
function chatOf(update: Update): string {
  const chat = update.message?.chat ?? update.edited_message?.chat ?? update.channel_post?.chat ??
    update.callback_query?.message?.chat ?? update.my_chat_member?.chat ?? update.chat_member?.chat ??
    update.message_reaction_count?.chat;
  return String(chat?.id ?? update.callback_query?.from.id ?? "");
}

/** The bot, with the promise of its batched writes (createBot's statisticsWritten) when it has them. */
type InboxBot = Bot & { statisticsWritten?: () => Promise<void> };

export function updateInbox(bot: InboxBot, sql: Sql, log: Log, claimer: string): UpdateInbox {
  let draining: Promise<void> | undefined;
  let again = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  // tests only: a pause between storing and handling, so a test can kill the process in it
  const holdMs = Number(Deno.env.get("PRESSA_TEST_HOLD_UPDATES_MS") ?? 0);

  async function handle(update: Update) {
    try {
      await bot.handleUpdate(update);
    } catch (error) {
      // the features' own failures are caught by their error boundary; what comes here is kept in the log
      log("warn", "a Telegram update failed", { updateId: update.update_id, error });
    }
  }

  const markHandled = (ids: number[]) =>
    sql`select app_public.record_telegram_update_handled(id) from unnest(${ids}::bigint[]) as id`;

  async function drainOnce() {
    for (;;) {
      if (holdMs > 0) await new Promise((resolve) => setTimeout(resolve, holdMs));
      const claimed = await sql<{ updateId: number; body: Update }[]>`
        select * from app_public.claim_telegram_updates(${claimer}, ${CLAIM_BATCH})`;
      if (claimed.length === 0) return;
      const byChat = new Map<string, Update[]>();
      for (const { body } of claimed.sort((a, b) => a.updateId - b.updateId)) {
        const chat = chatOf(body);
        byChat.set(chat, [...(byChat.get(chat) ?? []), body]);
      }
      const written: number[] = [];
      await Promise.all([...byChat.values()].map(async (updates) => {
        for (const update of updates) {
          await handle(update);
          // a press or a message is marked as soon as it is handled, so a long claim is never
          // handled again by another process past the claim's minute
          if (update.chat_member) written.push(update.update_id);
          else await markHandled([update.update_id]);
        }
      }));
      // A member update's handler hands it to a batch writer and returns (bot/features/stats.ts):
      // it is marked handled only once that write is in, or a kill in between lost it. One
      // mark for the claim's member updates, as one batch write.
      if (written.length > 0) {
        await bot.statisticsWritten?.();
        await markHandled(written);
      }
    }
  }

  function drain(): Promise<void> {
    if (draining) {
      again = true; // an update stored meanwhile is taken by one more pass
      return draining;
    }
    draining = (async () => {
      do {
        again = false;
        await drainOnce();
      } while (again);
    })().finally(() => (draining = undefined));
    return draining;
  }

  const drainInBackground = () =>
    void drain().catch((error) => log("warn", "handling stored Telegram updates failed; the next drain retries", { error }));

  return {
    async receive(updates) {
      if (updates.length === 0) return;
      await sql`select app_public.store_telegram_updates(${sql.json(updates as never)})`;
      drainInBackground();
    },
    drain,
    start() {
      drainInBackground();
      timer = setInterval(drainInBackground, DRAIN_EVERY_MS);
    },
    async stop() {
      clearInterval(timer);
      await draining?.catch(() => {});
    },
  };
}

/**
 * Long polling into the inbox: each batch is stored before the next getUpdates (whose offset
 * confirms it to Telegram) is asked for. Answers a stop() that ends the poll.
 */
export function pollUpdates(bot: Bot, inbox: UpdateInbox, log: Log, allowedUpdates: readonly string[]) {
  const abort = new AbortController();
  let offset = 0;
  const polling = (async () => {
    while (!abort.signal.aborted) {
      try {
        const updates = await bot.api.getUpdates(
          { offset, timeout: 25, allowed_updates: [...allowedUpdates] as never },
          abort.signal,
        );
        await inbox.receive(updates);
        if (updates.length > 0) offset = updates[updates.length - 1].update_id + 1;
      } catch (error) {
        if (abort.signal.aborted) break;
        log("warn", "getUpdates failed; polling again in a second", { error });
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
  })();
  return {
    isRunning: () => !abort.signal.aborted,
    async stop() {
      abort.abort();
      await polling;
    },
  };
}
