import useSWR, { mutate } from "swr";
import type { Draft, DraftHolder, DraftMoved, DraftSummary } from "../../../contract/drafts.ts";
import { DRAFT_EXCERPT_LENGTH } from "../../../contract/limits.ts";
import type { MessageEntity } from "../../../contract/entities.ts";
import type { PostOptions } from "../../../contract/post_options.ts";
import { apiFetch } from "./fetcher.ts";
import { refreshQueueHealth } from "./queueHealth.ts";
import { pollingDedupe } from "./swrConfig.ts";

const draftsPath = (projectId: number) => `/api/projects/${projectId}/drafts`;
/** The drafts list's lean view (docs/performance.md): title, excerpt and flags of each draft. */
export const draftsKey = (projectId: number) => `${draftsPath(projectId)}?view=list`;
const draftKey = (projectId: number, draftId: number) => `${draftsPath(projectId)}/${draftId}`;

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
export function sortDrafts<T extends Pick<DraftSummary, "id" | "order" | "createdAt">>(drafts: readonly T[]): T[] {
  return [...drafts].sort(
    (a, b) =>
      (a.order ?? 0) - (b.order ?? 0) ||
      Date.parse(a.createdAt) - Date.parse(b.createdAt) ||
      a.id - b.id,
  );
}

async function fetchDrafts(url: string): Promise<DraftSummary[]> {
  return sortDrafts(await apiFetch<DraftSummary[]>(url));
}

/**
 * The project's drafts as the lists show them (DraftSummary: no whole text), in publishing
 * order. `refreshInterval` polls the list (spec §7: every second while content is being
 * generated); an unchanged list costs a 304.
 */
export function useDrafts(projectId: number | null, { refreshInterval = 0 }: { refreshInterval?: number } = {}) {
  const { data, error, isLoading, mutate } = useSWR<DraftSummary[]>(
    projectId === null ? null : draftsKey(projectId),
    fetchDrafts,
    { refreshInterval, ...pollingDedupe(refreshInterval) },
  );
  return { drafts: data ?? [], isLoading, error: error as unknown, mutate };
}

/**
 * One whole draft (its text, formatting, album and options), read afresh each time a screen
 * asks for it (the editor opening, the schedule form's chosen draft): the list has excerpts only.
 * `ready` is false until this opening's read has answered.
 */
export function useDraft(projectId: number | null, draftId: number | null) {
  const { data, error, isValidating } = useSWR<Draft>(
    projectId === null || draftId === null ? null : draftKey(projectId, draftId),
    { revalidateOnMount: true, dedupingInterval: 0 },
  );
  return { draft: data, ready: data !== undefined && !isValidating, error: error as unknown };
}

/** One whole draft, read now (a draft's text picked in the AI assistant). */
export function fetchDraft(projectId: number, draftId: number): Promise<Draft> {
  return apiFetch<Draft>(draftKey(projectId, draftId));
}

const FREE: DraftHolder = { scheduledPostId: null, heldBySeriesId: null, heldByPlanId: null, nextForSeriesId: null };

/** What the list shows of a draft the app just wrote (the server's excerpt, made here). */
function summaryOf(draft: Draft, holder: DraftHolder): DraftSummary {
  return {
    id: draft.id,
    projectId: draft.projectId,
    title: draft.title,
    excerpt: Array.from(draft.content.trim()).slice(0, DRAFT_EXCERPT_LENGTH + 1).join(""),
    imageUrl: draft.imageUrl || null,
    imageCount: Math.max(draft.imageUrls.length, draft.imageUrl ? 1 : 0),
    order: draft.order,
    status: draft.status,
    createdAt: draft.createdAt,
    scheduledPostId: holder.scheduledPostId,
    heldBySeriesId: holder.heldBySeriesId,
    heldByPlanId: holder.heldByPlanId,
    nextForSeriesId: holder.nextForSeriesId,
  };
}

const updateList = (projectId: number, change: (list: DraftSummary[]) => DraftSummary[]) =>
  mutate<DraftSummary[]>(draftsKey(projectId), (list) => (list ? sortDrafts(change(list)) : list), { revalidate: false });

export async function createDraft(projectId: number, input: DraftInput): Promise<Draft> {
  // Spec §9: the create form sends order -1, which puts the new draft first.
  const draft = await apiFetch<Draft>(draftsPath(projectId), {
    method: "POST",
    body: { ...input, imageUrl: input.imageUrl ?? "", order: -1, projectId },
  });
  await updateList(projectId, (list) => [...list, summaryOf(draft, FREE)]);
  // a new free draft may become the one a series takes next: the server says which
  void mutate(draftsKey(projectId));
  void refreshQueueHealth(projectId);
  return draft;
}

export async function updateDraft(projectId: number, draftId: number, input: DraftInput): Promise<Draft> {
  const draft = await apiFetch<Draft>(draftKey(projectId, draftId), { method: "PATCH", body: input });
  await updateList(projectId, (list) => list.map((item) => (item.id === draftId ? summaryOf(draft, item) : item)));
  await mutate(draftKey(projectId, draftId), draft, { revalidate: false });
  return draft;
}

export async function deleteDraft(projectId: number, draftId: number): Promise<void> {
  await apiFetch(draftKey(projectId, draftId), { method: "DELETE" });
  await updateList(projectId, (list) => list.filter((item) => item.id !== draftId));
  // the series' next draft may move to another one
  void mutate(draftsKey(projectId));
  void refreshQueueHealth(projectId);
}

export async function bulkAddDrafts(projectId: number, titles: string[]): Promise<Draft[]> {
  const drafts = await apiFetch<Draft[]>(`${draftsPath(projectId)}/bulk`, { method: "POST", body: { titles } });
  await updateList(projectId, (list) => [...list, ...drafts.map((draft) => summaryOf(draft, FREE))]);
  void mutate(draftsKey(projectId));
  void refreshQueueHealth(projectId);
  return drafts;
}

/**
 * Saves a drag (spec §2) as one draft's new place, right after `afterId` (null: first),
 * never the whole list (docs/performance.md): the list shows the new order at once, then
 * takes the keys the server gave the draft and any it respaced; it goes back to the previous
 * order when the server refuses.
 */
export async function moveDraft(
  projectId: number,
  previous: DraftSummary[],
  ordered: DraftSummary[],
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
  await mutate<DraftSummary[]>(
    draftsKey(projectId),
    (list) => list?.map((draft) => (keys.has(draft.id) ? { ...draft, order: keys.get(draft.id)! } : draft)),
    { revalidate: false },
  );
}
