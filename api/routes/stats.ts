/*
 * Channel statistics and invite links (docs/statistics.md). Reading is one SQL call; an invite link is made or revoked in Telegram
 * first (only the bot can), then recorded. Another account's project answers 404.
 */
import { Hono } from "hono";
import { ApiError } from "../../core/errors.ts";
import { describeTelegramError } from "../../core/telegram/errors.ts";
import { type ChannelStats, type InviteLink, InviteLinkCreateSchema } from "../../contract/stats.ts";
import type { ApiDeps } from "../deps.ts";
import { type AppEnv, currentUser } from "../env.ts";
import { requireUser } from "../middleware/session.ts";
import { ownProjectList } from "../ownership.ts";
import { body, idParam, statsRange } from "../validate.ts";
import { requireTelegram, telegramUnavailable } from "../../core/telegram/checks.ts";

export function statsRoutes({ sql }: ApiDeps) {
  return new Hono<AppEnv>().use(requireUser).get("/", async (c) => {
    const projectId = idParam(c.req.param("projectId"));
    const { from, to } = statsRange(c.req.query());
    const [{ stats }] = await sql<{ stats: ChannelStats }[]>`
      select app_public.project_stats(${currentUser(c).id}, ${projectId}, ${from}::timestamptz, ${to}::timestamptz) as stats`;
    return c.json(stats);
  });
}

/** Telegram refusing because the bot lacks "Invite users via link" (or is no administrator at all). */
function cannotInvite(err: unknown): boolean {
  const code = describeTelegramError(err).code;
  return code === "telegram.notEnoughRights" || code === "telegram.botNotMember";
}

export function inviteLinkRoutes({ sql, telegram, config }: ApiDeps) {
  const max = config.limits.inviteLinksPerProject;
  return new Hono<AppEnv>()
    .use(requireUser)
    .get("/", async (c) => {
      const projectId = idParam(c.req.param("projectId"));
      const userId = currentUser(c).id;
      const rows = await sql<InviteLink[]>`select * from app_public.project_invite_links(${userId}, ${projectId})`;
      return c.json(await ownProjectList(sql, userId, projectId, rows));
    })
    .post("/", body(InviteLinkCreateSchema), async (c) => {
      const { name } = c.req.valid("json");
      const projectId = idParam(c.req.param("projectId"));
      const userId = currentUser(c).id;
      // ownership, a connected channel and room for a link before Telegram is asked
      const [{ chatId, channelLink }] = await sql<{ chatId: number; channelLink: string }[]>`
        select * from app_public.invite_link_prerequisites(${userId}, ${projectId}, ${max})`;
      const api = requireTelegram(telegram);
      let url: string;
      try {
        url = (await api.createChatInviteLink(chatId, { name })).invite_link;
      } catch (err) {
        if (cannotInvite(err)) throw new ApiError("stats.botCannotInvite", { params: { channel: channelLink } });
        throw telegramUnavailable(err);
      }
      try {
        const [link] = await sql<InviteLink[]>`
          select * from app_public.add_invite_link(${userId}, ${projectId}, ${chatId}, ${name}, ${url}, ${max})`;
        return c.json(link, 201);
      } catch (err) {
        // lost a race for the last place, or the channel changed meanwhile: the link must not stay open unlisted
        await api.revokeChatInviteLink(chatId, url).catch(() => {});
        throw err;
      }
    })
    .delete("/:linkId", async (c) => {
      const projectId = idParam(c.req.param("projectId"));
      const linkId = idParam(c.req.param("linkId"));
      const userId = currentUser(c).id;
      const [target] = await sql<{ chatId: number; channelLink: string; url: string; revoked: boolean }[]>`
        select * from app_public.invite_link_to_revoke(${userId}, ${projectId}, ${linkId})`;
      if (!target.revoked) {
        try {
          await requireTelegram(telegram).revokeChatInviteLink(target.chatId, target.url);
        } catch (err) {
          if (err instanceof ApiError) throw err;
          if (cannotInvite(err)) throw new ApiError("stats.botCannotInvite", { params: { channel: target.channelLink } });
          // a link Telegram no longer knows (expired, revoked by an administrator) is revoked for us too
          if (describeTelegramError(err).code !== "telegram.badRequest") throw telegramUnavailable(err);
        }
      }
      const [link] = await sql<InviteLink[]>`select * from app_public.revoke_invite_link(${userId}, ${projectId}, ${linkId})`;
      return c.json(link);
    });
}
