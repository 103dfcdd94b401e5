/*
 * Posts of a project (spec §2 Schedule and Published, §4, §5, §7). Scheduling, approval
 * and publishing rules are SQL functions; this file validates and maps. Deleting with
 * deleteFromChannels removes the channel messages first, so a refusal by Telegram leaves
 * the post in place and says why.
 */
import { Hono } from "hono";
import * as v from "valibot";
import { POSTS_RANGE_MAX_DAYS } from "../../contract/limits.ts";
import {
  type Post,
  POST_LIST_VIEWS,
  PostDeleteSchema,
  PostResendSchema,
  PostResolveSchema,
  PostsRangeQuery,
  PostWriteSchema,
  PublishedQuery,
  SeriesSkipSchema,
} from "../../contract/posts.ts";
import type { ApiDeps } from "../deps.ts";
import { type AppEnv, currentUser } from "../env.ts";
import { ApiError } from "../../core/errors.ts";
import { POST_COLUMNS } from "../post_columns.ts";
import { dbOf, idempotent, ifMatch, type Outside } from "../middleware/idempotency.ts";
import { requireUser } from "../middleware/session.ts";
import { listView, versionedList } from "../revalidate.ts";
import { confirmBotCanDelete, requireTelegram } from "../../core/telegram/checks.ts";
import { removeMessages } from "../../core/telegram/post_message.ts";
import { body, idParam, IgnoredBody, optionalBody, queryError } from "../validate.ts";
import { type Ad, AD_BOT_DELETE_LIMIT_MINUTES } from "../../contract/ads.ts";


/** The calendar's lean view (CalendarPostRow): a chip's fields and a series' rule, no text. */
export const CALENDAR_COLUMNS = [
  "id", "draft_id", "series_id", "title", "status", "scheduled_for", "is_recurring", "recurring_type", "recurring_last_post",
  "last_error_code", "last_error_params", "plan_id", "awaiting_text", "series_ends_after as ends_after", "series_ends_on::text as ends_on",
  "series_made as occurrences_made",
  `array(select to_char(s at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') from unnest(series_skips) s order by s) as skipped_occurrences`,
  "coalesce(image_url, '') <> '' as has_image",
  // an ad and its top window, which the grid draws and the schedule form warns of (contract/ads.ts)
  "app_private.ad_state(ad, published_at, scheduled_for, ad_removed_at, ad_removal_reminded_at) as ad_state",
].join(", ");

/** Where a post's messages are: the chat they went to, their ids, and the links shown. */
type SentMessages = { status: string; channelChatId: number | null; channelMessageIds: number[]; publishedLinks: Record<string, string> };

/**
 * `from` and `to` of the calendar's range read: both or neither (the spec's call has none),
 * ISO instants, from before to, at most POSTS_RANGE_MAX_DAYS apart.
 */
function postsRange(query: Record<string, string>): { from: string; to: string } | null {
  if (query.from === undefined && query.to === undefined) return null;
  if (query.from === undefined || query.to === undefined) throw new ApiError("posts.rangeNotIso");
  const parsed = v.safeParse(PostsRangeQuery, query);
  if (!parsed.success) throw queryError(parsed.issues, "posts.rangeNotIso");
  const start = Date.parse(parsed.output.from!);
  const end = Date.parse(parsed.output.to!);
  if (end <= start) throw new ApiError("posts.rangeReversed");
  if (end - start > POSTS_RANGE_MAX_DAYS * 86_400_000) {
    throw new ApiError("posts.rangeTooLong");
  }
  return { from: new Date(start).toISOString(), to: new Date(end).toISOString() };
}


type PostWrite = v.InferOutput<typeof PostWriteSchema>;

export function postRoutes({ sql, telegram, log, config }: ApiDeps) {
  /**
   * Removes a published post's messages from the chat they were published in (never the
   * project's current channel, which may be another chat by now, with unrelated messages
   * under the same ids); answers the ids gone (already gone included).
   */
  async function deleteChannelMessages(sent: SentMessages, messageIds: number[]): Promise<number[]> {
    if (sent.channelChatId === null) throw new ApiError("schedule.channelUnknown");
    const channel = Object.keys(sent.publishedLinks)[0];
    const { refusal } = await removeMessages(requireTelegram(telegram), sent.channelChatId, messageIds);
    if (refusal) {
      throw new ApiError(refusal.definite ? "schedule.channelDeleteFailed" : "schedule.channelDeleteUnavailable", {
        params: { channel: channel ? `@${channel}` : "the channel", description: refusal.description },
      });
    }
    return messageIds;
  }

  /**
   * An ad the bot deletes at its term (feedMinutes 1-2879) is planned only while the bot may
   * delete messages in the project's channel (409 ads.cannotDelete): Telegram is asked before
   * the one SQL call that plans it, and before any transaction Idempotency-Key or If-Match
   * opens (their `outside` work). Without a bot or a channel there is nothing to ask yet; the
   * removal checks again before the term.
   */
  const adRemovable = (postIdName?: string): Outside => async (c) => {
    const p = write(c.req.valid("json") as PostWrite);
    const postId = postIdName === undefined ? null : idParam(c.req.param(postIdName));
    await assertAdRemovable(currentUser(c).id, idParam(c.req.param("projectId")), postId, p);
  };
  async function assertAdRemovable(userId: number, projectId: number, postId: number | null, p: ReturnType<typeof write>) {
    if (!telegram || p.recurringType !== "none") return;
    // an ad given in the request that the bot does not delete (or none) needs no question
    const given = p.ad === null ? undefined : JSON.parse(p.ad) as Ad | null;
    if (given !== undefined && !(given && given.feedMinutes >= 1 && given.feedMinutes < AD_BOT_DELETE_LIMIT_MINUTES)) return;
    const [target] = await sql<{ chatId: number; channelLink: string }[]>`
      select * from app_public.ad_removal_channel(${userId}, ${projectId}, ${p.draftId}, ${postId}, ${p.ad}::text::jsonb)`;
    if (target) await confirmBotCanDelete(telegram, Number(target.chatId), target.channelLink);
  }

  const write = (p: PostWrite) => {
    const recurring = p.isRecurring || p.recurringType !== "none";
    return {
      draftId: recurring ? null : p.draftId ?? null,
      scheduledFor: new Date(p.scheduledFor),
      recurringType: recurring ? (p.recurringType === "none" ? "daily" : p.recurringType) : "none",
      title: p.title,
      content: p.content,
      entities: p.entities === undefined ? null : sql.json(p.entities),
      options: p.options === undefined ? null : sql.json(p.options),
      // absent: the draft's ad (SQL's null); null: none (JSON's null, which sql.json would send as SQL's)
      ad: p.ad === undefined ? null : JSON.stringify(p.ad),
      endsAfter: recurring ? p.endsAfter ?? null : null,
      endsOn: recurring ? p.endsOn ?? null : null,
    };
  };
  return new Hono<AppEnv>()
    .use(requireUser)
    .get("/", async (c) => {
      const projectId = idParam(c.req.param("projectId"));
      const userId = currentUser(c).id;
      const range = postsRange(c.req.query());
      const view = listView(c, POST_LIST_VIEWS);
      const columns = sql.unsafe(view === "calendar" ? CALENDAR_COLUMNS : POST_COLUMNS);
      // The project's posts version is the ETag (ownership included: another's project has none).
      return await versionedList(
        c,
        sql,
        `${view}:${range ? `${range.from}/${range.to}` : "all"}`,
        () => sql`app_public.posts_version(${userId}, ${projectId})`,
        (version) =>
          range
            ? sql`select ${version}, ${columns} from app_public.project_posts_between(${userId}, ${projectId}, ${range.from}, ${range.to})`
            : sql`select ${version}, ${columns} from app_public.project_posts(${userId}, ${projectId})`,
      );
    })
    .get("/published", async (c) => {
      const projectId = idParam(c.req.param("projectId"));
      const userId = currentUser(c).id;
      const query = v.safeParse(PublishedQuery, c.req.query());
      if (!query.success || (query.output.before === undefined) !== (query.output.beforeId === undefined)) {
        throw queryError(query.issues, "posts.publishedQueryInvalid");
      }
      const { limit, before, beforeId } = query.output as { limit: number; before?: string; beforeId?: number };
      // Newest first, a page at a time: the next page starts after the last post shown
      // (its publishedAt and id), so posts published meanwhile never shift or repeat rows.
      // Times are compared as the API shows them, to the millisecond. Every page shown is
      // revalidated by the posts version (a 304 while nothing changed).
      return await versionedList(
        c,
        sql,
        `published:${limit}:${before ?? ""}:${beforeId ?? ""}`,
        () => sql`app_public.posts_version(${userId}, ${projectId})`,
        (version) => sql`
          select ${version}, ${sql.unsafe(POST_COLUMNS)} from app_public.published_posts(${userId}, ${projectId})
          ${before === undefined ? sql`` : sql`where (date_trunc('milliseconds', published_at), id) < (${before}::timestamptz, ${beforeId!})`}
          order by date_trunc('milliseconds', published_at) desc, id desc
          limit ${limit}`,
      );
    })
    // The whole post, for the details dialog of the calendar's lean view.
    .get("/:postId", async (c) => {
      const [row] = await sql<(Post & { etag: string })[]>`
        select ${sql.unsafe(POST_COLUMNS)}, app_private.etag(id, updated_at) as etag
        from app_public.project_post(${currentUser(c).id}, ${idParam(c.req.param("projectId"))}, ${idParam(c.req.param("postId"))})`;
      if (!row) throw new ApiError("posts.notFound");
      // its version, for If-Match on its update (docs/api.md)
      const { etag, ...post } = row;
      c.header("ETag", etag);
      return c.json(post);
    })
    .post("/", body(PostWriteSchema), idempotent(sql, adRemovable()), async (c) => {
      const p = write(c.req.valid("json"));
      const db = dbOf(c, sql);
      if (c.req.valid("json").writeDraft && p.recurringType === "none") {
        if (p.title.trim() === "") throw new ApiError("drafts.titleRequired");
        const [written] = await db<Post[]>`
          select ${sql.unsafe(POST_COLUMNS)} from app_public.write_and_schedule_post(${currentUser(c).id}, ${idParam(c.req.param("projectId"))},
            ${p.scheduledFor}, ${p.title}, ${p.content}, ${p.entities}, ${p.options}, ${config.limits.draftsPerProject}, ${p.ad}::text::jsonb)`;
        return c.json(written, 201);
      }
      const [row] = await db<Post[]>`
        select ${sql.unsafe(POST_COLUMNS)} from app_public.schedule_post(${currentUser(c).id}, ${idParam(c.req.param("projectId"))},
          ${p.draftId}, ${p.scheduledFor}, ${p.recurringType}, ${p.title}, ${p.content}, ${p.entities}, ${p.options},
          ${p.endsAfter}, ${p.endsOn}, ${p.ad}::text::jsonb)`;
      return c.json(row, 201);
    })
    .put("/:postId", body(PostWriteSchema), ifMatch(sql, "post", "postId", adRemovable("postId")), async (c) => {
      const p = write(c.req.valid("json"));
      const [row] = await dbOf(c, sql)<Post[]>`
        select ${sql.unsafe(POST_COLUMNS)} from app_public.update_post(${currentUser(c).id}, ${idParam(c.req.param("projectId"))},
          ${idParam(c.req.param("postId"))}, ${p.draftId}, ${p.scheduledFor}, ${p.recurringType}, ${p.title}, ${p.content},
          ${p.entities}, ${p.options}, ${p.endsAfter}, ${p.endsOn}, ${p.ad}::text::jsonb)`;
      return c.json(row);
    })
    .post("/:postId/skip", body(SeriesSkipSchema), async (c) => {
      const { at, skip } = c.req.valid("json");
      const [row] = await sql<Post[]>`
        select ${sql.unsafe(POST_COLUMNS)} from app_public.skip_series_occurrence(${currentUser(c).id}, ${idParam(c.req.param("projectId"))},
          ${idParam(c.req.param("postId"))}, ${at}::timestamptz, ${skip})`;
      return c.json(row);
    })
    .post("/:postId/publish", optionalBody(IgnoredBody), async (c) => {
      const [row] = await sql<Post[]>`
        select ${sql.unsafe(POST_COLUMNS)} from app_public.request_post_approval(${currentUser(c).id}, ${idParam(c.req.param("projectId"))},
          ${idParam(c.req.param("postId"))})`;
      return c.json(row);
    })
    // A post awaiting approval: its preview again (a new round), or moved with scheduledFor.
    .post("/:postId/resend", optionalBody(PostResendSchema), async (c) => {
      const { scheduledFor } = c.req.valid("json");
      const [row] = await sql<Post[]>`
        select ${sql.unsafe(POST_COLUMNS)} from app_public.resend_post_approval(${currentUser(c).id},
          ${idParam(c.req.param("projectId"))}, ${idParam(c.req.param("postId"))}, ${scheduledFor ?? null})`;
      return c.json(row);
    })
    .post("/:postId/resolve", body(PostResolveSchema), async (c) => {
      const [row] = await sql<Post[]>`
        select ${sql.unsafe(POST_COLUMNS)} from app_public.resolve_uncertain_post_as_owner(${currentUser(c).id},
          ${idParam(c.req.param("projectId"))}, ${idParam(c.req.param("postId"))}, ${c.req.valid("json").inChannel})`;
      return c.json(row);
    })
    .delete("/:postId", optionalBody(PostDeleteSchema), async (c) => {
      const { deleteFromChannels, deleteRecurringSeries } = c.req.valid("json");
      const userId = currentUser(c).id;
      const projectId = idParam(c.req.param("projectId"));
      const postId = idParam(c.req.param("postId"));
      // Telegram is asked first, outside any transaction: its answer may take seconds (rate
      // limits), and a transaction would hold one of the pool's few connections and the
      // post's row lock all that time. A refusal leaves the post in place.
      const removed = new Set<number>();
      if (deleteFromChannels) {
        // refused (posts.channelChanged) once the post's chat is not the project's channel
        const [target] = await sql<SentMessages[]>`select * from app_public.post_channel_messages(${userId}, ${projectId}, ${postId})`;
        if (target?.status === "published" && target.channelMessageIds.length > 0) {
          for (const id of await deleteChannelMessages(target, target.channelMessageIds)) removed.add(id);
        }
      }
      const deleted = await sql<(SentMessages & { id: number; channelChanged: boolean })[]>`
        select id, status, channel_chat_id, channel_message_ids, published_links,
          app_private.post_channel_changed(project_id, status, channel_chat_id, approved_chat_id) as channel_changed
        from app_public.delete_post(${userId}, ${projectId}, ${postId}, ${deleteRecurringSeries})`;
      // A post that went out between the two steps: its message is removed too, best effort,
      // and only from the project's channel.
      for (const row of deleteFromChannels ? deleted : []) {
        const late = row.status === "published" && !row.channelChanged ? row.channelMessageIds.filter((id) => !removed.has(id)) : [];
        if (late.length === 0) continue;
        await deleteChannelMessages(row, late).catch((err) =>
          log("warn", "a message published while its post was deleted stays in the channel", { projectId, postId: row.id, error: err })
        );
      }
      return c.json({ ok: true, deleted: deleted.map((r) => r.id) });
    });
}
