/*
 * Samples a connected channel's subscriber count with getChatMemberCount (docs/statistics.md): when it is connected, then hourly (channels__queue_subscriber_samples
 * spreads the channels over the hour). The jobs run in one serial queue and each call
 * takes a bot-wide slot of the shared Telegram budget (core/telegram/client.ts), so many
 * channels never crowd publishing. Telegram refusing for good (the bot was removed) ends
 * the job: the next hour tries again.
 */
import type { Api } from "grammy";
import type { Task } from "graphile-worker";
import * as v from "valibot";
import type { Sql } from "../core/db.ts";
import { refusedForGood } from "../core/telegram/errors.ts";

const Payload = v.object({ channelId: v.number() });

export function sampleSubscribers(sql: Sql, telegram: Api | undefined): Task {
  return async (payload, helpers) => {
    const parsed = v.safeParse(Payload, payload);
    if (!parsed.success) return helpers.logger.error("channels__sample_subscribers: malformed payload, dropped");
    const { channelId } = parsed.output;
    const [{ chatId }] = await sql<{ chatId: number | null }[]>`select app_public.subscriber_sample_target(${channelId}) as chat_id`;
    if (!telegram || chatId === null) return;
    let count: number;
    try {
      count = await telegram.getChatMemberCount(chatId, helpers.abortSignal);
    } catch (err) {
      const refusal = refusedForGood(err);
      if (!refusal) throw err;
      return helpers.logger.warn(`channels__sample_subscribers: channel ${channelId} not sampled: ${refusal.description}`);
    }
    await sql`select app_public.record_subscriber_sample(${channelId}, ${count})`;
  };
}
