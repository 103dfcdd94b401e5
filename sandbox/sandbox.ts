/*
 * The Telegram sandbox (docs/sandbox.md): the product's own Bot API double
 * (sandbox/telegram, the one the tests use) run as a local Bot API server, with one
 * simulated channel and its admin, the approver. The bot, the API and the worker talk to it
 * over HTTP exactly as to api.telegram.org (TELEGRAM_API_ROOT); what a person would do in a
 * Telegram client (read the chats, press a button, write /start to the bot) goes through a
 * small control server beside it, which only the API calls (api/routes/sandbox.ts).
 * In memory: a new start begins an empty Telegram with the same ids, so a database from an
 * earlier run still names the same channel and admin.
 */
import type { Message } from "grammy/types";
import type { SandboxMessage, SandboxPress, SandboxView } from "../contract/sandbox.ts";
import { sniffImage } from "./telegram/images.ts";
import { startTelegramServer, type TelegramServer } from "./telegram/server.ts";

export const SANDBOX_BOT = { username: "pressa_sandbox_bot", name: "Pressa" };
export const SANDBOX_ADMIN = { username: "sandbox_admin", name: "Sandbox admin" };
export const SANDBOX_CHANNEL = { username: "sandbox_channel", title: "Pressa sandbox" };

/** How long a press waits for the bot's answer (the toast a client shows) before answering without it. */
const ANSWER_WAIT_MS = 5_000;

export type Sandbox = {
  telegram: TelegramServer;
  /** The token and the root the product's processes use (TELEGRAM_BOT_TOKEN, TELEGRAM_API_ROOT). */
  token: string;
  apiRoot: string;
  /** The control server's root (PRESSA_SANDBOX_URL): GET /view, POST /start, POST /press, GET /files/:id. */
  controlUrl: string;
  view(): SandboxView;
  close(): Promise<void>;
};

export async function startSandbox(): Promise<Sandbox> {
  const telegram = await startTelegramServer({ botUsername: SANDBOX_BOT.username, botFirstName: SANDBOX_BOT.name });
  const admin = telegram.addUser({ username: SANDBOX_ADMIN.username, first_name: SANDBOX_ADMIN.name });
  const channel = telegram.addChannel({ username: SANDBOX_CHANNEL.username, title: SANDBOX_CHANNEL.title, owner: admin.id });
  let startedBot = false;

  const shown = (chat: number) => (message: Message): SandboxMessage => {
    const info = telegram.messageInfo(chat, message.message_id);
    const photo = message.photo?.at(-1)?.file_id;
    const keyboard = message.reply_markup?.inline_keyboard ?? [];
    return {
      id: message.message_id,
      date: message.date,
      outgoing: message.from?.id === admin.id,
      text: message.text ?? message.caption ?? "",
      entities: (message.entities ?? message.caption_entities ?? []).map(({ type, offset, length, ...rest }) => ({
        type,
        offset,
        length,
        ...("url" in rest && rest.url ? { url: rest.url } : {}),
      })),
      ...(photo ? { photo } : {}),
      ...(message.media_group_id ? { albumId: message.media_group_id } : {}),
      buttons: keyboard.map((row) =>
        row.map((button) => ({
          text: button.text,
          ...("callback_data" in button ? { data: button.callback_data } : {}),
          ...("url" in button ? { url: button.url } : {}),
        }))
      ),
      pinned: info?.pinned ?? false,
      ...(message.pinned_message ? { pinnedMessageId: message.pinned_message.message_id } : {}),
      edited: message.edit_date !== undefined,
    };
  };

  const view = (): SandboxView => ({
    bot: { username: telegram.me.username, name: telegram.me.first_name },
    admin: { ...SANDBOX_ADMIN, startedBot },
    channel: SANDBOX_CHANNEL,
    chat: telegram.messages(admin.id).map(shown(admin.id)),
    feed: telegram.messages(channel.id).map(shown(channel.id)),
  });

  async function press(body: unknown): Promise<SandboxPress | undefined> {
    const { messageId, data } = body as { messageId: number; data: string };
    let queryId: string;
    try {
      queryId = telegram.userPressesButton(admin.id, admin.id, messageId, data);
    } catch {
      return undefined; // the message or its button is gone (edited away, deleted)
    }
    const answer = await telegram.waitFor(() => telegram.callbackAnswer(queryId), ANSWER_WAIT_MS).catch(() => undefined);
    return { answer: answer?.text ?? null };
  }

  const control = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const { pathname } = new URL(request.url);
    if (request.method === "GET" && pathname === "/view") return Response.json(view());
    if (request.method === "POST" && pathname === "/start") {
      telegram.userSends(admin.id, "/start");
      startedBot = true;
      return Response.json(view());
    }
    if (request.method === "POST" && pathname === "/press") {
      const pressed = await press(await request.json());
      return pressed ? Response.json(pressed) : Response.json({ message: "no such button" }, { status: 404 });
    }
    const file = request.method === "GET" && /^\/files\/([\w-]+)$/.exec(pathname);
    const stored = file ? telegram.file(file[1]) : undefined;
    if (stored) {
      // an upload's part often says application/octet-stream; the browser is told what the bytes are
      const format = sniffImage(stored.bytes)?.format;
      const type = format ? `image/${format}` : stored.contentType;
      return new Response(new Uint8Array(stored.bytes), { headers: { "content-type": type } });
    }
    return Response.json({ message: "not found" }, { status: 404 });
  });

  return {
    telegram,
    token: telegram.token,
    apiRoot: telegram.apiRoot,
    controlUrl: `http://127.0.0.1:${control.addr.port}`,
    view,
    async close() {
      await control.shutdown();
      await telegram.close();
    },
  };
}
