import { type RefObject, useCallback, useLayoutEffect, useMemo, useRef, useState } from "react";

/** A first guess for a row never shown, until some rows are measured (a one-line draft is ~67 px). */
const ESTIMATED_ROW_PX = 67;
/** Rendered before the first measurement (no layout yet). */
const FIRST_RENDER_ROWS = 20;

export type WindowRows = {
  /** Indexes to render, ascending: the rows on screen and `overscanPx` around them, plus `pinned`. */
  indexes: number[];
  /** Top of row `index` within the list (its height sums; estimated for rows never shown). */
  offsetOf: (index: number) => number;
  /** A stable callback ref per row key: the row is measured while it is mounted. */
  rowRef: (key: number) => (node: HTMLElement | null) => void;
};

/** First index in [low, high) for which `test` holds (it must hold for every later index too), else high. */
function firstWhere(low: number, high: number, test: (index: number) => boolean): number {
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (test(middle)) high = middle;
    else low = middle + 1;
  }
  return low;
}

/**
 * Virtualizes a list that scrolls with the page (the window), so a page's cost follows what
 * is on the screen: only the rows in view, `overscanPx` above and below, and `pinned` (the
 * row being dragged, which dnd-kit needs to keep) are rendered; the caller fills the rest
 * with spacers of `offsetOf` heights. Rows may differ in height: each rendered row is
 * measured (ResizeObserver) and remembered by key, so the list keeps its measured heights
 * when rows move. Rows above the screen that turn out taller or shorter than estimated move
 * what follows; the browser's scroll anchoring keeps the rows on screen in place.
 */
export function useWindowRows(
  keys: readonly number[],
  listRef: RefObject<HTMLElement | null>,
  { overscanPx, pinned = -1 }: { overscanPx: number; pinned?: number },
): WindowRows {
  const heights = useRef(new Map<number, number>());
  const measured = useRef({ total: 0, count: 0 });
  const [heightsVersion, setHeightsVersion] = useState(0);
  const [range, setRange] = useState({ start: 0, end: FIRST_RENDER_ROWS });

  const offsets = useMemo(() => {
    const { total, count } = measured.current;
    const estimate = count > 0 ? total / count : ESTIMATED_ROW_PX;
    const result = new Float64Array(keys.length + 1);
    for (let index = 0; index < keys.length; index++) {
      result[index + 1] = result[index] + (heights.current.get(keys[index]) ?? estimate);
    }
    return result;
    // heightsVersion: recomputed when a row's measured height changed
  }, [keys, heightsVersion]);
  const offsetsRef = useRef(offsets);
  offsetsRef.current = offsets;

  const keyOfNode = useMemo(() => new WeakMap<Element, number>(), []);
  // Rows stop being observed through their refs (called with null when they unmount).
  const observer = useMemo(() => {
    if (typeof ResizeObserver === "undefined") return null;
    return new ResizeObserver((entries) => {
      let changed = false;
      for (const entry of entries) {
        const key = keyOfNode.get(entry.target);
        if (key === undefined) continue;
        const height = entry.borderBoxSize?.[0]?.blockSize ?? (entry.target as HTMLElement).offsetHeight;
        if (height === 0) continue; // detached or hidden: keep what is known
        const before = heights.current.get(key);
        if (before !== undefined && Math.abs(before - height) < 0.5) continue;
        heights.current.set(key, height);
        measured.current.total += height - (before ?? 0);
        if (before === undefined) measured.current.count += 1;
        changed = true;
      }
      if (changed) setHeightsVersion((version) => version + 1);
    });
  }, [keyOfNode]);
  const refs = useRef(new Map<number, (node: HTMLElement | null) => void>());
  const rowRef = useCallback(
    (key: number) => {
      let ref = refs.current.get(key);
      if (!ref) {
        let current: HTMLElement | null = null;
        ref = (node) => {
          if (current) observer?.unobserve(current);
          current = node;
          if (node) {
            keyOfNode.set(node, key);
            observer?.observe(node);
          }
        };
        refs.current.set(key, ref);
      }
      return ref;
    },
    [observer, keyOfNode],
  );

  // Which rows the window shows now: binary searches over the offsets.
  const frame = useRef(0);
  const update = useCallback(() => {
    frame.current = 0;
    const list = listRef.current;
    if (!list) return;
    const all = offsetsRef.current;
    const count = all.length - 1;
    const listTop = list.getBoundingClientRect().top;
    const top = -listTop - overscanPx;
    const bottom = -listTop + window.innerHeight + overscanPx;
    const start = firstWhere(0, count, (index) => all[index + 1] > top);
    const end = firstWhere(start, count, (index) => all[index] >= bottom);
    setRange((current) => (current.start === start && current.end === end ? current : { start, end }));
  }, [listRef, overscanPx]);

  useLayoutEffect(() => {
    const schedule = () => {
      if (frame.current === 0) frame.current = requestAnimationFrame(update);
    };
    window.addEventListener("scroll", schedule, { passive: true });
    window.addEventListener("resize", schedule);
    return () => {
      window.removeEventListener("scroll", schedule);
      window.removeEventListener("resize", schedule);
      cancelAnimationFrame(frame.current);
      frame.current = 0;
    };
  }, [update]);
  // After every change of the rows or their heights, before the browser paints.
  useLayoutEffect(update, [update, offsets]);

  const start = Math.min(range.start, keys.length);
  const end = Math.min(range.end, keys.length);
  const indexes: number[] = [];
  if (pinned >= 0 && pinned < start) indexes.push(pinned);
  for (let index = start; index < end; index++) indexes.push(index);
  if (pinned >= end && pinned < keys.length) indexes.push(pinned);

  const offsetOf = useCallback((index: number) => offsets[index], [offsets]);
  return { indexes, offsetOf, rowRef };
}
