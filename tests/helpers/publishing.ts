/* A project ready to publish: signed-in owner, registered admin, connected channel, drafts. */
import type { Stack } from "./stack.ts";
import { uniqueEmail } from "./stack.ts";

let counter = 0;

export async function projectWithChannel(stack: Stack, options: { drafts?: string[]; timezone?: string; language?: string } = {}) {
  counter += 1;
  const telegram = stack.telegram!;
  const { cookie } = await stack.signIn(uniqueEmail("owner"));
  const handle = `admin_${Date.now().toString(36)}_${counter}`;
  const admin = telegram.addUser({ username: handle, first_name: "Admin", language_code: "ru", startedBot: true });
  await stack.sql`select app_public.record_admin_chat(${handle}, ${admin.id})`;
  const channel = telegram.addChannel({ username: `channel_${Date.now().toString(36)}_${counter}`, title: "Channel" });
  const project = (await stack.call("POST", "/api/projects", {
    name: "Publishing",
    adminHandle: handle,
    timezone: options.timezone ?? "Europe/Moscow",
  }, cookie)).json;
  if (options.language) await stack.call("PATCH", `/api/projects/${project.id}`, { language: options.language }, cookie);
  const added = await stack.call("POST", `/api/projects/${project.id}/channels`, { type: "telegram", link: `@${channel.username}` }, cookie);
  if (added.status !== 201) throw new Error(`channel: ${added.text}`);
  const drafts = options.drafts?.length
    ? (await stack.call("POST", `/api/projects/${project.id}/drafts/bulk`, { titles: options.drafts }, cookie)).json as { id: number; title: string }[]
    : [];
  return { cookie, admin, channel, project, drafts, base: `/api/projects/${project.id}` };
}

/** The callback_data of a message's inline buttons. */
export const buttonsOf = (m: { reply_markup?: { inline_keyboard: { callback_data?: string }[][] } | object }) =>
  ((m.reply_markup as { inline_keyboard?: { callback_data?: string }[][] } | undefined)?.inline_keyboard ?? [])
    .flat().map((b) => b.callback_data);
