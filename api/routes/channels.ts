/*
 * A project's channel (spec §2 Channels, §5, §8). Connecting one asks Telegram, through
 * the bot, whether the channel exists and the bot may post there; only a verified channel
 * is stored, so a failure leaves nothing behind.
 */
import type { Api } from "grammy";
import { Hono } from "hono";
import { ChannelCreateSchema, channelUsername } from "../contract/channels.ts";
import type { Channel } from "../contract/channels.ts";
import type { ApiDeps } from "../deps.ts";
import { type AppEnv, currentUser } from "../env.ts";
import { ApiError } from "../errors.ts";
import { ownProjectList } from "../ownership.ts";
import { requireUser } from "../middleware/session.ts";
import { describeTelegramError } from "../telegram/errors.ts";
import { body, idParam } from "../validate.ts";

export function telegramUnavailable(err: unknown): ApiError {
  const failure = describeTelegramError(err);
  if (failure.code === "telegram.unauthorized") {
    return new ApiError(503, failure.code, "Telegram refused the bot's token: check TELEGRAM_BOT_TOKEN");
  }
  return new ApiError(503, "telegram.unreachable", `Telegram is not reachable right now (${failure.description}). Please try again.`);
}

export function requireTelegram(telegram: Api | undefined): Api {
  if (!telegram) {
    throw new ApiError(503, "telegram.notConfigured", "The Telegram bot is not configured on this server (TELEGRAM_BOT_TOKEN is not set)");
  }
  return telegram;
}

/** Checks the channel with Telegram; answers its chat id or throws the reason it cannot be used. */
async function verifyChannel(telegram: Api, username: string): Promise<number> {
  let chatId: number;
  let botId: number;
  try {
    const chat = await telegram.getChat(`@${username}`);
    if (chat.type !== "channel") {
      throw new ApiError(400, "channels.notAChannel", `@${username} is not a channel`);
    }
    chatId = chat.id;
    botId = (await telegram.getMe()).id;
  } catch (err) {
    if (err instanceof ApiError) throw err;
    const failure = describeTelegramError(err);
    if (failure.code === "telegram.chatNotFound" || failure.code === "telegram.badRequest") {
      throw new ApiError(400, "channels.notFound", `Channel @${username} was not found in Telegram. Check the link; the channel must be public.`);
    }
    throw telegramUnavailable(err);
  }
  let member;
  try {
    member = await telegram.getChatMember(chatId, botId);
  } catch (err) {
    const failure = describeTelegramError(err);
    if (failure.definite && failure.code !== "telegram.unauthorized" && failure.code !== "telegram.rateLimited") {
      throw new ApiError(400, "channels.botNotAdmin", `The bot is not an administrator of @${username}. Add it as an administrator with the "Post messages" permission.`);
    }
    throw telegramUnavailable(err);
  }
  if (member.status === "creator") return chatId;
  if (member.status !== "administrator") {
    throw new ApiError(400, "channels.botNotAdmin", `The bot is not an administrator of @${username}. Add it as an administrator with the "Post messages" permission.`);
  }
  if (!member.can_post_messages) {
    throw new ApiError(400, "channels.missingPostPermission", `The bot is an administrator of @${username} but lacks the "Post messages" permission. Turn it on in the channel's administrator settings.`);
  }
  return chatId;
}

export function channelRoutes({ sql, telegram }: ApiDeps) {
  return new Hono<AppEnv>()
    .use(requireUser)
    .get("/", async (c) => {
      const projectId = idParam(c.req.param("projectId"));
      const userId = currentUser(c).id;
      const rows = await sql<Channel[]>`select * from app_public.project_channels(${userId}, ${projectId})`;
      return c.json(await ownProjectList(sql, userId, projectId, rows));
    })
    .post("/", body(ChannelCreateSchema), async (c) => {
      const { type, link } = c.req.valid("json");
      if (type !== "telegram") {
        throw new ApiError(400, "channels.platformUnavailable", `${type === "vk" ? "VK" : "Dzen"} is not available yet: only Telegram channels can be connected`);
      }
      const projectId = idParam(c.req.param("projectId"));
      const userId = currentUser(c).id;
      const [prerequisites] = await sql<{ adminChatId: number }[]>`
        select * from app_public.channel_prerequisites(${userId}, ${projectId})`;
      const username = channelUsername(link)!;
      const chatId = await verifyChannel(requireTelegram(telegram), username);
      const [row] = await sql<Channel[]>`
        select * from app_public.add_channel(${userId}, ${projectId}, 'telegram', ${`@${username}`}, ${chatId},
          ${prerequisites.adminChatId})`;
      return c.json(row, 201);
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
