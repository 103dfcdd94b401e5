/** The Drafts page's selection: which drafts are ticked, and what a batch delete did to them. */

/** The selection without drafts that left the list (deleted, published meanwhile); the same set when none did. */
export function keepPresent(selected: ReadonlySet<number>, present: readonly { id: number }[]): ReadonlySet<number> {
  const ids = new Set(present.map((draft) => draft.id));
  const kept = [...selected].filter((id) => ids.has(id));
  return kept.length === selected.size ? selected : new Set(kept);
}

/** The selection with one draft ticked or unticked. */
export function toggled(selected: ReadonlySet<number>, draftId: number, checked: boolean): ReadonlySet<number> {
  const next = new Set(selected);
  if (checked) next.add(draftId);
  else next.delete(draftId);
  return next;
}

export type BatchDeleteOutcome = { deleted: number[]; skipped: number; failed: number };

/**
 * Spec §2/§8: one DELETE per draft, answered in the order asked. A draft a planned post still
 * uses is skipped (the server's guard), not failed: the person is told why, not to try again.
 */
export function batchDeleteOutcome(
  ids: readonly number[],
  results: readonly PromiseSettledResult<unknown>[],
  isSkipped: (reason: unknown) => boolean,
): BatchDeleteOutcome {
  const deleted = ids.filter((_, index) => results[index].status === "fulfilled");
  const skipped = results.filter((result) => result.status === "rejected" && isSkipped(result.reason)).length;
  return { deleted, skipped, failed: results.length - deleted.length - skipped };
}

/**
 * What "generate text" does with a selection (spec §2/§5): nothing chosen, too many (at most
 * `max` a job), ask before replacing drafts that already have text, or start at once. The ids
 * are in the list's order.
 */
export type GenerationPlan =
  | { kind: "none" }
  | { kind: "tooMany" }
  | { kind: "confirm" | "start"; ids: number[]; withContent: number };

export function generationPlan(drafts: readonly { id: number; excerpt: string }[], selected: ReadonlySet<number>, max: number): GenerationPlan {
  const chosen = drafts.filter((draft) => selected.has(draft.id));
  if (chosen.length === 0) return { kind: "none" };
  if (chosen.length > max) return { kind: "tooMany" };
  const withContent = chosen.filter((draft) => draft.excerpt !== "").length;
  return { kind: withContent > 0 ? "confirm" : "start", ids: chosen.map((draft) => draft.id), withContent };
}
