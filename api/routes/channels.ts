/*
 * A project's channel (spec §2 Channels, §5, §8). Connecting one asks Telegram, through
 * the bot, whether the channel exists and the bot may post there; only a verified channel
 * is stored, so a failure leaves nothing behind. It is stored pending until the named
 * approver allows it in Telegram (bot/features/approver_requests.ts).
 */
import { Hono } from "hono";
import { ChannelCreateSchema, channelUsername } from "../../contract/channels.ts";
import { APPROVER_REQUEST_TTL_HOURS } from "../../contract/limits.ts";
import type { Channel } from "../../contract/channels.ts";
import type { ApiDeps } from "../deps.ts";
import { type AppEnv, currentUser } from "../env.ts";
import { ApiError } from "../../core/errors.ts";
import { ownProjectList } from "../ownership.ts";
import { requireUser } from "../middleware/session.ts";
import { channelChatId, confirmApprover, confirmBot, requireTelegram, telegramUnavailable } from "../../core/telegram/checks.ts";
import { body, idParam } from "../validate.ts";

type ChannelRow = Omit<Channel, "config" | "approver" | "awaiting"> & {
  config: Channel["config"];
  chatId: number | null;
  approverUserId: number | null;
  approverHandle: string | null;
  approverName: string | null;
  /** project_channels only: the request waiting on the channel */
  awaitingHandle?: string | null;
  awaitingUntil?: Date | string | null;
};

/** The request a channel waits on; a channel just requested waits on its own approver. */
function awaitingOf(row: ChannelRow): Channel["awaiting"] {
  if (row.awaitingHandle && row.awaitingUntil) {
    return { handle: row.awaitingHandle, until: new Date(row.awaitingUntil).toISOString() };
  }
  if (row.status !== "pending" || !row.approverHandle) return null;
  const until = new Date(new Date(row.createdAt).getTime() + APPROVER_REQUEST_TTL_HOURS * 3_600_000);
  return { handle: row.approverHandle, until: until.toISOString() };
}

/** The API's channel: the spec's config (chat id, the approver's chat) and the verified approver. */
function toChannel(row: ChannelRow): Channel {
  return {
    id: row.id,
    projectId: row.projectId,
    type: row.type,
    link: row.link,
    status: row.status,
    config: {
      ...row.config,
      ...(row.chatId === null ? {} : { chatId: row.chatId }),
      ...(row.approverUserId === null ? {} : { adminChatId: row.approverUserId }),
    },
    // Only a confirmed approver is named as such; a pending channel's is still awaited.
    approver: row.status !== "connected" || row.approverUserId === null || row.approverHandle === null
      ? null
      : { handle: row.approverHandle, name: row.approverName },
    awaiting: awaitingOf(row),
    createdAt: row.createdAt,
  };
}

export function channelRoutes({ sql, telegram }: ApiDeps) {
  return new Hono<AppEnv>()
    .use(requireUser)
    .get("/", async (c) => {
      const projectId = idParam(c.req.param("projectId"));
      const userId = currentUser(c).id;
      const rows = await sql<ChannelRow[]>`select * from app_public.project_channels(${userId}, ${projectId})`;
      return c.json(await ownProjectList(sql, userId, projectId, rows.map(toChannel)));
    })
    .post("/", body(ChannelCreateSchema), async (c) => {
      const { type, link } = c.req.valid("json");
      if (type !== "telegram") {
        throw new ApiError("channels.platformUnavailable", { params: { platform: type === "vk" ? "VK" : "Dzen" } });
      }
      const projectId = idParam(c.req.param("projectId"));
      const userId = currentUser(c).id;
      const [admin] = await sql<{ adminHandle: string; adminChatId: number }[]>`
        select * from app_public.channel_prerequisites(${userId}, ${projectId})`;
      const api = requireTelegram(telegram);
      const channel = `@${channelUsername(link)!}`;
      const chatId = await channelChatId(api, channel.slice(1));
      await confirmBot(api, chatId, channel);
      // In a private chat the chat id is the user's id: the admin's chat is who they are.
      const approverName = await confirmApprover(api, chatId, channel, { userId: admin.adminChatId, handle: admin.adminHandle });
      // Refuses a chat connected elsewhere only now, so that only the channel's own
      // administrators learn that it is connected in another account. Stored pending: the
      // approver is asked in Telegram, and only their Allow connects it.
      const [row] = await sql<ChannelRow[]>`
        select * from app_public.request_channel(${userId}, ${projectId}, 'telegram', ${channel}, ${chatId},
          ${admin.adminChatId}, ${admin.adminHandle}, ${approverName})`;
      return c.json(toChannel(row), 201);
    })
    .delete("/:channelId", async (c) => {
      await sql`select app_public.delete_channel(${currentUser(c).id}, ${idParam(c.req.param("projectId"))},
        ${idParam(c.req.param("channelId"))})`;
      return c.json({ ok: true });
    });
}

/** The bot's public identity for the instructions link (spec §2: the dialog links to the bot). */
export function botRoutes({ telegram }: ApiDeps) {
  let cached: { username: string } | undefined;
  return new Hono<AppEnv>().use(requireUser).get("/", async (c) => {
    if (!cached) {
      try {
        const me = await requireTelegram(telegram).getMe();
        cached = { username: me.username };
      } catch (err) {
        if (err instanceof ApiError) throw err;
        throw telegramUnavailable(err);
      }
    }
    return c.json({ username: cached.username, link: `https://t.me/${cached.username}` });
  });
}
