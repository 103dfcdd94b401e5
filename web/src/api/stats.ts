import useSWR, { mutate } from "swr";
import type { ChannelStats, InviteLink } from "../../../contract/stats.ts";
import { apiFetch } from "./fetcher.ts";

/** An instant range [from, to) of the Statistics page, as ISO strings. */
export type StatsRange = { from: string; to: string };

export const statsKey = (projectId: number, range: StatsRange) =>
  `/api/projects/${projectId}/stats?from=${encodeURIComponent(range.from)}&to=${encodeURIComponent(range.to)}`;
export const inviteLinksKey = (projectId: number) => `/api/projects/${projectId}/invite-links`;

/**
 * The channel's figures for a range (docs/statistics.md). Another range
 * keeps the shown figures until its own arrive, so the charts don't flash empty.
 */
export function useStats(projectId: number | null, range: StatsRange) {
  const { data, error, isLoading, mutate } = useSWR<ChannelStats>(projectId === null ? null : statsKey(projectId, range), {
    keepPreviousData: true,
  });
  return { stats: data, isLoading, error: error as unknown, mutate };
}

/** The project's invite links, newest first, revoked ones too. */
export function useInviteLinks(projectId: number | null) {
  const { data, error, isLoading, mutate } = useSWR<InviteLink[]>(projectId === null ? null : inviteLinksKey(projectId));
  return { links: data ?? [], isLoading, error: error as unknown, mutate };
}

/** Makes a link in Telegram (the bot needs "Invite users via link") and lists it first. */
export async function createInviteLink(projectId: number, name: string): Promise<InviteLink> {
  const link = await apiFetch<InviteLink>(inviteLinksKey(projectId), { method: "POST", body: { name } });
  await mutate<InviteLink[]>(inviteLinksKey(projectId), (list) => [link, ...(list ?? []).filter((l) => l.id !== link.id)], {
    revalidate: false,
  });
  return link;
}

/** Revokes a link in Telegram; it stays listed, revoked, with its figures. */
export async function revokeInviteLink(projectId: number, linkId: number): Promise<InviteLink> {
  const link = await apiFetch<InviteLink>(`${inviteLinksKey(projectId)}/${linkId}`, { method: "DELETE" });
  await mutate<InviteLink[]>(inviteLinksKey(projectId), (list) => (list ?? []).map((l) => (l.id === link.id ? link : l)), {
    revalidate: false,
  });
  return link;
}
