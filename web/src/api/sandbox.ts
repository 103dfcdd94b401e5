import useSWR, { mutate } from "swr";
import type { SandboxPress, SandboxView } from "../../../contract/sandbox.ts";
import { apiFetch } from "./fetcher.ts";
import { pollingDedupe } from "./swrConfig.ts";

export const SANDBOX_KEY = "/api/sandbox";

/** The sandbox's chats are read this often, so the bot's messages show up as in a Telegram client. */
export const SANDBOX_REFRESH_MS = 1_500;

/**
 * The Telegram sandbox (`npm run demo`, docs/sandbox.md). Without it the API answers 404,
 * and `on` stays false: nothing of the sandbox shows.
 */
export function useSandbox({ poll }: { poll: boolean }) {
  const { data, error, isLoading } = useSWR<SandboxView>(SANDBOX_KEY, {
    refreshInterval: poll ? SANDBOX_REFRESH_MS : 0,
    ...pollingDedupe(poll ? SANDBOX_REFRESH_MS : 0),
  });
  return { sandbox: data, on: data !== undefined, isLoading, error: error as unknown };
}

export const sandboxFileUrl = (fileId: string) => `${SANDBOX_KEY}/files/${encodeURIComponent(fileId)}`;

/** The admin writes /start to the bot, as opening it in Telegram does. */
export async function writeStart() {
  const view = await apiFetch<SandboxView>(`${SANDBOX_KEY}/start`, { method: "POST" });
  await mutate(SANDBOX_KEY, view, { revalidate: false });
}

/** The admin presses a callback button; answers the bot's toast text, if it gave one. */
export async function pressButton(messageId: number, data: string): Promise<string | null> {
  const pressed = await apiFetch<SandboxPress>(`${SANDBOX_KEY}/press`, { method: "POST", body: { messageId, data } });
  await mutate(SANDBOX_KEY);
  return pressed.answer;
}
