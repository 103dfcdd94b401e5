import useSWR, { mutate } from "swr";
import type { Draft } from "../../../api/contract/drafts.ts";
import { apiFetch } from "./fetcher.ts";
import { pollingDedupe } from "./swrConfig.ts";

export const draftsKey = (projectId: number) => `/api/projects/${projectId}/drafts`;
const draftKey = (projectId: number, draftId: number) => `${draftsKey(projectId)}/${draftId}`;

/** What the edit dialog saves; a null imageUrl removes the image. */
export type DraftInput = { title: string; content: string; imageUrl: string | null };

/** Spec §2/§3: the list is shown by order (a missing order counts as 0), then oldest first. */
export function sortDrafts(drafts: Draft[]): Draft[] {
  return [...drafts].sort(
    (a, b) =>
      (a.order ?? 0) - (b.order ?? 0) ||
      Date.parse(a.createdAt) - Date.parse(b.createdAt) ||
      a.id - b.id,
  );
}

async function fetchDrafts(url: string): Promise<Draft[]> {
  return sortDrafts(await apiFetch<Draft[]>(url));
}

/** `refreshInterval` polls the list (spec §7: every second while content is being generated). */
export function useDrafts(projectId: number | null, { refreshInterval = 0 }: { refreshInterval?: number } = {}) {
  const { data, error, isLoading, mutate } = useSWR<Draft[]>(
    projectId === null ? null : draftsKey(projectId),
    fetchDrafts,
    { refreshInterval, ...pollingDedupe(refreshInterval) },
  );
  return { drafts: data ?? [], isLoading, error: error as unknown, mutate };
}

const updateList = (projectId: number, change: (list: Draft[]) => Draft[]) =>
  mutate<Draft[]>(draftsKey(projectId), (list) => (list ? sortDrafts(change(list)) : list), { revalidate: false });

export async function createDraft(projectId: number, input: DraftInput): Promise<Draft> {
  // Spec §9: the create form sends order -1, which puts the new draft first.
  const draft = await apiFetch<Draft>(draftsKey(projectId), {
    method: "POST",
    body: { title: input.title, content: input.content, imageUrl: input.imageUrl ?? "", order: -1, projectId },
  });
  await updateList(projectId, (list) => [...list, draft]);
  return draft;
}

export async function updateDraft(projectId: number, draftId: number, input: DraftInput): Promise<Draft> {
  const draft = await apiFetch<Draft>(draftKey(projectId, draftId), { method: "PATCH", body: input });
  await updateList(projectId, (list) => list.map((item) => (item.id === draftId ? draft : item)));
  return draft;
}

export async function deleteDraft(projectId: number, draftId: number): Promise<void> {
  await apiFetch(draftKey(projectId, draftId), { method: "DELETE" });
  await updateList(projectId, (list) => list.filter((item) => item.id !== draftId));
}

export async function bulkAddDrafts(projectId: number, titles: string[]): Promise<Draft[]> {
  const drafts = await apiFetch<Draft[]>(`${draftsKey(projectId)}/bulk`, { method: "POST", body: { titles } });
  await updateList(projectId, (list) => [...list, ...drafts]);
  return drafts;
}

/**
 * Saves a new order at once (spec §2): the list shows it immediately, and goes back to the
 * previous order when the server refuses it.
 */
export async function reorderDrafts(projectId: number, previous: Draft[], ordered: Draft[]): Promise<void> {
  const renumbered = ordered.map((draft, index) => ({ ...draft, order: index }));
  await mutate(draftsKey(projectId), renumbered, { revalidate: false });
  try {
    await apiFetch(`${draftsKey(projectId)}/reorder`, {
      method: "POST",
      body: { drafts: renumbered.map(({ id, order }) => ({ id, order })) },
    });
  } catch (error) {
    await mutate(draftsKey(projectId), previous, { revalidate: false });
    throw error;
  }
}
