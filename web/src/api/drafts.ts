import useSWR, { mutate } from "swr";
import type { Draft, DraftMoved } from "../../../contract/drafts.ts";
import type { MessageEntity } from "../../../contract/entities.ts";
import type { PostOptions } from "../../../contract/post_options.ts";
import { apiFetch } from "./fetcher.ts";
import { refreshQueueHealth } from "./queueHealth.ts";
import { pollingDedupe } from "./swrConfig.ts";

export const draftsKey = (projectId: number) => `/api/projects/${projectId}/drafts`;
const draftKey = (projectId: number, draftId: number) => `${draftsKey(projectId)}/${draftId}`;

/**
 * What the edit dialog saves; a null imageUrl removes the image. The content's formatting
 * goes with it (new content without entities is plain), and options when given.
 */
export type DraftInput = {
  title: string;
  content: string;
  entities?: MessageEntity[];
  imageUrl: string | null;
  /** The album, first image first; replaces the stored one when given. */
  imageUrls?: string[];
  options?: PostOptions;
};

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
    body: { ...input, imageUrl: input.imageUrl ?? "", order: -1, projectId },
  });
  await updateList(projectId, (list) => [...list, draft]);
  void refreshQueueHealth(projectId);
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
  void refreshQueueHealth(projectId);
}

export async function bulkAddDrafts(projectId: number, titles: string[]): Promise<Draft[]> {
  const drafts = await apiFetch<Draft[]>(`${draftsKey(projectId)}/bulk`, { method: "POST", body: { titles } });
  await updateList(projectId, (list) => [...list, ...drafts]);
  void refreshQueueHealth(projectId);
  return drafts;
}

/**
 * Saves a drag (spec §2) as one draft's new place, right after `afterId` (null: first),
 * never the whole list (README "Performance"): the list shows the new order at once, then
 * takes the keys the server gave the draft and any it respaced; it goes back to the previous
 * order when the server refuses.
 */
export async function moveDraft(
  projectId: number,
  previous: Draft[],
  ordered: Draft[],
  draftId: number,
  afterId: number | null,
): Promise<void> {
  await mutate(draftsKey(projectId), ordered, { revalidate: false });
  let moved: DraftMoved;
  try {
    moved = await apiFetch<DraftMoved>(`${draftKey(projectId, draftId)}/move`, { method: "POST", body: { afterId } });
  } catch (error) {
    await mutate(draftsKey(projectId), previous, { revalidate: false });
    throw error;
  }
  const keys = new Map<number, number>([[moved.id, moved.order], ...moved.respaced.map(({ id, order }) => [id, order] as const)]);
  await mutate<Draft[]>(
    draftsKey(projectId),
    (list) => list?.map((draft) => (keys.has(draft.id) ? { ...draft, order: keys.get(draft.id)! } : draft)),
    { revalidate: false },
  );
}
