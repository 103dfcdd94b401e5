import useSWR, { mutate } from "swr";
import type { Channel } from "../../../contract/channels.ts";
import { apiFetch, hasStatus } from "./fetcher.ts";

export const channelsKey = (projectId: number) => `/api/projects/${projectId}/channels`;
export const TELEGRAM_BOT_KEY = "/api/telegram/bot";

/** The new channel's details as the add dialog sends them (spec §7). */
export type ChannelInput = { type: Channel["type"]; link: string };

/** How often a channel waiting for its approver's Allow in Telegram is read again. */
export const AWAITING_REFRESH_MS = 3_000;

export function useChannels(projectId: number | null) {
  // While the approver is asked, the list is read again until the answer shows by itself.
  const { data, error, isLoading, mutate } = useSWR<Channel[]>(projectId === null ? null : channelsKey(projectId), {
    refreshInterval: (latest) => latest?.some((channel) => channel.awaiting) ? AWAITING_REFRESH_MS : 0,
  });
  return { channels: data ?? [], isLoading, error: error as unknown, mutate };
}

export type TelegramBot = { username: string; link: string };

/**
 * The product's bot, for the "message the bot" instruction. 503 means the server has no bot
 * configured (`notConfigured`); the dialog then explains that instead of linking.
 */
export function useTelegramBot(enabled: boolean) {
  const { data, error, isLoading } = useSWR<TelegramBot>(enabled ? TELEGRAM_BOT_KEY : null);
  return { bot: data, isLoading, error: error as unknown, notConfigured: hasStatus(error, 503) };
}

/**
 * Connecting asks Telegram about the channel, so it takes a second or two; the channel is
 * then pending until its approver allows it in Telegram.
 */
export async function addChannel(projectId: number, input: ChannelInput): Promise<Channel> {
  const channel = await apiFetch<Channel>(channelsKey(projectId), {
    method: "POST",
    body: { type: input.type, link: input.link, status: "pending", projectId },
  });
  await mutate<Channel[]>(channelsKey(projectId), (list) => [...(list ?? []), channel], { revalidate: false });
  return channel;
}

export async function deleteChannel(projectId: number, channelId: number): Promise<void> {
  await apiFetch(`${channelsKey(projectId)}/${channelId}`, { method: "DELETE" });
  await mutate<Channel[]>(channelsKey(projectId), (list) => list?.filter((item) => item.id !== channelId), {
    revalidate: false,
  });
}
