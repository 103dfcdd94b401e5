/*
 * The one way out to Telegram. Every call of the API, the worker and the bot goes through
 * an Api with this transformer, which keeps within Telegram's limits:
 *   - about 30 messages per second per bot,
 *   - 20 messages per minute per channel or group (and about 1 per second per private chat),
 *   - a 429 answer's retry_after is waited out and the call retried, within a bound.
 * The count lives in a SendBudget (send_budget.ts): the processes of the product share one
 * kept in PostgreSQL, so two workers together still stay under the bot's limits; an Api
 * given none (tests, tools) counts in its own process.
 */
import { Api, type ApiClientOptions, GrammyError, type Transformer } from "grammy";
import { Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import type { CallCounter } from "./call_counts.ts";
import { processBudget, type SendBudget } from "./send_budget.ts";

export { BOT_MESSAGES_PER_SECOND, CHANNEL_MESSAGES_PER_MINUTE } from "./send_budget.ts";

/** Methods that post or change a message count against the limits. */
const MESSAGE_METHOD = /^(send|copy|forward|edit)/;
/**
 * Calls made per channel in bulk (the statistics' hourly samples, invite links) take a
 * bot-wide slot like an edit, never the channel's: sampling a thousand channels stays
 * within the bot's pace and never uses up a channel's 20 posts a minute.
 */
const BOT_WIDE_METHOD = /^(getChatMemberCount|createChatInviteLink|revokeChatInviteLink)$/;

export type TelegramOptions = {
  /** The longest total wait for retry_after on one call before giving up. */
  maxRetryWaitMs?: number;
  log?: (message: string, fields?: Record<string, unknown>) => void;
  /** Where messages are counted: `databaseBudget(sql, token)` in the product's processes; default this process only. */
  budget?: SendBudget;
  /** Where each call is counted for GET /metrics (`telegramCallCounts(sql)` in the product's processes); default nowhere. */
  calls?: CallCounter;
};

export function rateLimitTransformer(options: TelegramOptions = {}): Transformer {
  const maxRetryWaitMs = options.maxRetryWaitMs ?? 60_000;
  const budget = options.budget ?? processBudget();

  return async (prev, method, payload, signal) => {
    let waited = 0;
    while (true) {
      if (MESSAGE_METHOD.test(method)) {
        // edits count bot-wide only
        const chatId = method.startsWith("edit") ? undefined : (payload as { chat_id?: unknown }).chat_id;
        await budget.take(chatId === undefined ? undefined : String(chatId));
      } else if (BOT_WIDE_METHOD.test(method)) {
        await budget.take(undefined);
      }
      let result;
      try {
        result = await prev(method, payload, signal);
      } catch (error) {
        options.calls?.count(method, "unreachable");
        throw error;
      }
      options.calls?.count(method, result.ok ? "ok" : result.error_code === 429 ? "rate_limited" : "refused");
      const retryAfter = !result.ok && result.error_code === 429 ? result.parameters?.retry_after : undefined;
      if (retryAfter === undefined || waited + retryAfter * 1000 > maxRetryWaitMs) return result;
      options.log?.("telegram asked us to wait", { method, retryAfter });
      waited += retryAfter * 1000;
      await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
    }
  };
}

/**
 * No keep-alive. On a reused connection that closes before the answer arrives, the HTTP
 * client underneath grammY silently sends the request again; for sendMessage that is a
 * second post in the channel (measured against the local Bot API server: 2 copies). A new
 * connection per call turns that case into an error we handle (the post becomes
 * `uncertain`). It costs a TCP/TLS handshake per call, well within Telegram's own limits.
 */
const httpAgent = new HttpAgent({ keepAlive: false });
const httpsAgent = new HttpsAgent({ keepAlive: false });
export const TELEGRAM_CLIENT: ApiClientOptions = {
  baseFetchConfig: {
    // node-fetch (grammY's client on this runtime) takes an agent per URL
    agent: (url: URL) => (url.protocol === "https:" ? httpsAgent : httpAgent),
  } as ApiClientOptions["baseFetchConfig"],
};

/** A grammY Api for the configured bot, or undefined when no token is configured. */
export function createTelegramApi(
  token: string | undefined,
  apiRoot: string,
  options: TelegramOptions = {},
): Api | undefined {
  if (!token) return undefined;
  const api = new Api(token, { ...TELEGRAM_CLIENT, apiRoot });
  api.config.use(rateLimitTransformer(options));
  return api;
}

export { GrammyError };
