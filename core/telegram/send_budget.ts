/*
 * Telegram's limits as a budget every message takes from before it goes out:
 *   - about 30 messages per second per bot (we grant one under, spaced evenly),
 *   - 20 messages per minute per channel or group (one under), about 1 per second per
 *     private chat,
 *   - edits count bot-wide only.
 *
 * Two budgets: `processBudget()` keeps the count in this process (tests, tools), and
 * `databaseBudget(sql, token)` keeps it in PostgreSQL (app_private.reserve_telegram_send),
 * shared by every process of the bot: the API, any number of workers and the bot. The
 * latter costs one database round trip per message (one more for a message whose moment
 * passed, see LATE_MS); if the database cannot answer, the message takes from this
 * process's own budget instead (logged), so a send never fails for the budget's sake.
 */
import type { Sql } from "../db.ts";
import { RateGate } from "./rate_gate.ts";

export const BOT_MESSAGES_PER_SECOND = 30;
export const CHANNEL_MESSAGES_PER_MINUTE = 20;
/**
 * We stay one message under each limit, over a window a little longer than Telegram's, so
 * jitter between the moment we send and the moment Telegram counts never tips a full
 * window over (measured by `npm run bench:publish`, see docs/performance.md). 30 ms was not enough on a
 * fully loaded 2-core machine: one message in 80 arrived inside a full second and got a 429.
 */
export const WINDOW_MARGIN_MS = 100;

const BOT_LIMIT = BOT_MESSAGES_PER_SECOND - 1;
const BOT_WINDOW_MS = 1000 + WINDOW_MARGIN_MS;
/** Bot-wide messages are at least this far apart. */
export const BOT_GAP_MS = BOT_WINDOW_MS / BOT_LIMIT;

/**
 * A message whose moment came and went (the process was busy or stalled, a timer fired
 * late) is not sent late: it reserves a new moment. Otherwise every message due during a
 * stall would go out at once after it, and with the ones on time after them fill one of
 * Telegram's seconds past its limit (a stall of ~65 ms is enough at full pace). An
 * in-process gate gets this by deciding when its timer fires; a reservation is decided
 * before. The new moment is bot-wide only: the chat's count already holds the message (a
 * minute's window, one message under Telegram's, is not tipped over by a few ms). At most
 * this many reservations per message, then it goes.
 */
const LATE_MS = 20;
const MAX_RESERVATIONS = 3;

/** A chat's own limit: private chats (positive ids) ~1/s, channels and groups 19 per minute. */
export function chatLimit(chatKey: string): { limit: number; windowMs: number } {
  return /^\d+$/.test(chatKey)
    ? { limit: 1, windowMs: 1000 + WINDOW_MARGIN_MS }
    : { limit: CHANNEL_MESSAGES_PER_MINUTE - 1, windowMs: 60_000 + WINDOW_MARGIN_MS };
}

export interface SendBudget {
  /**
   * Resolves when one message may go out: into `chatKey`'s chat, or bot-wide only when
   * `chatKey` is undefined (an edit). Messages are granted in the order they ask.
   */
  take(chatKey: string | undefined): Promise<void>;
}

/**
 * How long `chatKey`'s chat would make `messages` more messages wait in the shared budget,
 * reserving nothing: a job that would wait longer than it should hold a worker slot comes
 * back later instead (tasks/posts__publish.ts). 0 when the bot counts in its process only.
 */
export async function chatWaitMs(sql: Sql, token: string, chatKey: string, messages: number): Promise<number> {
  const { limit, windowMs } = chatLimit(chatKey);
  const [{ waitMs }] = await sql<{ waitMs: number }[]>`
    select app_private.telegram_chat_wait_ms(${botIdOf(token)}, ${chatKey}, ${limit}::int, ${windowMs}::float8, ${messages}::int)
      as wait_ms`;
  return waitMs;
}

const botIdOf = (token: string) => token.includes(":") ? token.slice(0, token.indexOf(":")) : "bot";

/** The budget of this process alone. */
export function processBudget(): SendBudget {
  const botGate = new RateGate(BOT_LIMIT, BOT_WINDOW_MS, { evenly: true });
  const chatGates = new Map<string, RateGate>();
  const chatGate = (key: string) => {
    let gate = chatGates.get(key);
    if (!gate) {
      const { limit, windowMs } = chatLimit(key);
      gate = new RateGate(limit, windowMs);
      chatGates.set(key, gate);
      if (chatGates.size > 10_000) {
        for (const [k, g] of chatGates) if (g.idle) chatGates.delete(k);
      }
    }
    return gate;
  };
  return {
    async take(chatKey) {
      if (chatKey !== undefined) await chatGate(chatKey).take();
      await botGate.take();
    },
  };
}

export type DatabaseBudget = SendBudget & {
  /** Reserves a moment for one message and answers the milliseconds until it (no waiting). */
  reserve(chatKey: string | undefined): Promise<number>;
  /** Messages taken, and the extra reservations made for messages whose moment had passed. */
  readonly counts: { taken: number; late: number };
};

/**
 * The budget of the bot with this token, kept in the database behind `sql`. Only the
 * token's public part (the bot's id) is stored.
 */
export function databaseBudget(
  sql: Sql,
  token: string,
  log?: (message: string, fields?: Record<string, unknown>) => void,
): DatabaseBudget {
  const botId = botIdOf(token);
  let fallback: SendBudget | undefined;
  let warnedAt = 0;
  const reserve = async (chatKey: string | undefined) => {
    const { limit, windowMs } = chatKey === undefined ? { limit: 0, windowMs: 0 } : chatLimit(chatKey);
    const chat = chatKey ?? null;
    const [{ waitMs }] = await sql<{ waitMs: number }[]>`
      select app_private.reserve_telegram_send(${botId}, ${chat}, ${limit}::int, ${windowMs}::float8, ${BOT_GAP_MS}::float8)
        as wait_ms`;
    return waitMs;
  };
  const counts = { taken: 0, late: 0 };
  return {
    reserve,
    counts,
    async take(chatKey) {
      counts.taken++;
      for (let reservations = 1;; reservations++) {
        if (reservations > 1) counts.late++;
        let waitMs: number;
        try {
          waitMs = await reserve(reservations === 1 ? chatKey : undefined);
        } catch (error) {
          if (Date.now() - warnedAt > 60_000) {
            warnedAt = Date.now();
            log?.("the shared Telegram send budget is unavailable; this process counts its own messages", {
              error,
            });
          }
          fallback ??= processBudget();
          return fallback.take(chatKey);
        }
        // the moment reserved, on our clock (the answer left the database just after it reserved)
        const due = performance.now() + waitMs;
        if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
        if (performance.now() - due <= LATE_MS || reservations >= MAX_RESERVATIONS) return;
      }
    },
  };
}
