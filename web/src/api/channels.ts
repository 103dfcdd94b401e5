import useSWR, { mutate } from "swr";
import type { Channel } from "../../../api/contract/channels.ts";
import { apiFetch, hasStatus } from "./fetcher.ts";

export const channelsKey = (projectId: number) => `/api/projects/${projectId}/channels`;
export const TELEGRAM_BOT_KEY = "/api/telegram/bot";

/** The new channel's details as the add dialog sends them (spec §7). */
export type ChannelInput = { type: Channel["type"]; link: string };

export function useChannels(projectId: number | null) {
  const { data, error, isLoading, mutate } = useSWR<Channel[]>(projectId === null ? null : channelsKey(projectId));
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

/** Connecting asks Telegram about the channel, so it takes a second or two. */
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
