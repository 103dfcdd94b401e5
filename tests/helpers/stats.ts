/* Channel statistics seeded through their SQL rules, as the bot and the worker record them. */
import type { Stack } from "./stack.ts";

let updateId = 5_000_000;

/** `count` people join (or leave) the channel `chatId` now, through `inviteLink` when given: what the bot hands to SQL. */
export async function memberUpdates(stack: Stack, chatId: number, kind: "join" | "leave", count: number, inviteLink?: string) {
  const updates = Array.from({ length: count }, () => {
    updateId += 1;
    return {
      updateId, chatId, userId: updateId, date: Math.floor(Date.now() / 1000), inviteLink,
      oldStatus: kind === "join" ? "left" : "member", newStatus: kind === "join" ? "member" : "left",
    };
  });
  await stack.sql`select app_public.record_member_updates(${stack.sql.json(updates)})`;
}

/** The id of the project's channel row. */
export async function channelIdOf(stack: Stack, projectId: number): Promise<number> {
  return (await stack.sql`select id from app_public.channels where project_id = ${projectId}`)[0].id as number;
}

/** Until the worker has taken the sample it takes when the channel is connected; answers the channel's id. */
export async function connectSampled(stack: Stack, projectId: number): Promise<number> {
  const channelId = await channelIdOf(stack, projectId);
  const deadline = Date.now() + 15_000;
  while (!(await stack.sql`select 1 from app_private.channel_stats where channel_id = ${channelId} and subscribers is not null`).length) {
    if (Date.now() > deadline) throw new Error("the channel's count was never sampled");
    await new Promise((r) => setTimeout(r, 100));
  }
  return channelId;
}

/**
 * The project's channel count then and now: `weekAgo` as the hourly sample of 7 days ago
 * (history no rule can write today, so it is put where that sample would be), `now` as the
 * worker's sample, taken after the one at connection (which would otherwise overwrite it).
 */
export async function subscriberHistory(stack: Stack, projectId: number, weekAgo: number, now: number) {
  const channelId = await connectSampled(stack, projectId);
  await stack.sql`insert into app_private.subscriber_samples (channel_id, sampled_at, subscribers)
    values (${channelId}, now() - interval '7 days 20 minutes', ${weekAgo})`;
  await stack.sql`select app_public.record_subscriber_sample(${channelId}, ${now})`;
}
