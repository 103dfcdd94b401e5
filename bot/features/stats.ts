/*
 * Channel statistics (docs/statistics.md): `chat_member` and `message_reaction_count`
 * updates of a channel are recorded in SQL and nothing else: no Telegram call. Which
 * updates count, whose channel they belong to and whether one was seen before is decided
 * there (record_member_update, record_reaction_count).
 *
 * A 100k-subscriber channel sends thousands of member updates a day, and a backlog of them
 * arrives at once after a pause. Handled one SQL call each, in the channel's order, they
 * filled the runner's 500 places and an admin's Approve, fetched behind them, waited for
 * the whole backlog (bench:stats: no answer within 30 s during 10,000 joins; 3.7 s when
 * the handler still waited for its batch). So this feature runs before the per-chat
 * ordering, and member updates are handed to a writer that records them in batches while
 * the runner fetches on (one batch at a time keeps a join before its leave). The update
 * inbox marks its claim handled only once the writer is idle (createBot's
 * `statisticsWritten`), so a process killed before a batch is written loses no update: it
 * is handled again from the inbox.
 */
import { Composer } from "grammy";
import type { ChatMember } from "grammy/types";
import type { Sql } from "../../core/db.ts";
import type { BotDeps } from "../deps.ts";

/** A restricted person may be inside the chat or not; Telegram says which. */
const isMemberFlag = (member: ChatMember) => ("is_member" in member ? member.is_member : null);

type MemberUpdate = {
  updateId: number;
  chatId: number;
  userId: number;
  date: number;
  oldStatus: string;
  oldIsMember: boolean | null;
  newStatus: string;
  newIsMember: boolean | null;
  inviteLink: string | null;
};

/** At most this many updates per SQL call (a few ms of work in PostgreSQL). */
const BATCH_MAX = 500;
/** Updates gathered but not yet written beyond which the bot waits for them (so a slow database slows the fetching, not the memory). */
const BACKLOG_MAX = 20_000;

/**
 * Writes member updates in batches: whatever arrived while the previous batch was being
 * written goes in the next call, in the order it came. `record` answers at once while the
 * backlog is small (a failed batch is logged: the updates are gone); `idle()` resolves once
 * everything is written.
 */
export function memberUpdateWriter(sql: Sql, log: BotDeps["log"]) {
  let waiting: MemberUpdate[] = [];
  let draining: Promise<void> | undefined;
  async function drain() {
    while (waiting.length > 0) {
      const batch = waiting.slice(0, BATCH_MAX);
      waiting = waiting.slice(BATCH_MAX);
      try {
        await sql`select app_public.record_member_updates(${sql.json(batch)})`;
      } catch (error) {
        log("error", "channel member updates not recorded", { updates: batch.length, firstUpdateId: batch[0].updateId, error });
      }
    }
    draining = undefined;
  }
  return {
    async record(update: MemberUpdate) {
      waiting.push(update);
      draining ??= drain();
      if (waiting.length > BACKLOG_MAX) await draining;
    },
    idle: async () => {
      while (draining) await draining;
    },
  };
}

export function stats({ sql, log }: BotDeps, members = memberUpdateWriter(sql, log)) {
  const feature = new Composer();
  feature.on("chat_member", async (ctx) => {
    const update = ctx.chatMember;
    if (update.chat.type !== "channel") return;
    const { old_chat_member: before, new_chat_member: after } = update;
    await members.record({
      updateId: ctx.update.update_id,
      chatId: update.chat.id,
      userId: after.user.id,
      date: update.date,
      oldStatus: before.status,
      oldIsMember: isMemberFlag(before),
      newStatus: after.status,
      newIsMember: isMemberFlag(after),
      inviteLink: update.invite_link?.invite_link ?? null,
    });
  });
  feature.on("message_reaction_count", async (ctx) => {
    const update = ctx.messageReactionCount;
    if (update.chat.type !== "channel") return;
    await sql`select app_public.record_reaction_count(${ctx.update.update_id}, ${update.chat.id}, ${update.message_id},
      to_timestamp(${update.date}), ${sql.json(update.reactions as unknown as Parameters<typeof sql.json>[0])})`;
  });
  return feature;
}
