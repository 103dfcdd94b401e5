import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { useT } from "../../i18n/i18n.tsx";
import { onToastQueueRequested, toastQueueRequested } from "../../lib/toast.ts";

const ToastQueue = lazy(() => import("./ToastQueue.tsx"));

/**
 * Spec §2/§9 toasts: one at a time (the rest wait in a queue), 5 s each, at most 420px wide,
 * swipe right by 50px to dismiss, and F8 moves focus to the toast region.
 * The region is here from the first paint; what renders the toasts loads when the browser is
 * idle, or with the first toast if that comes sooner. Being a live region from the start, it
 * has screen readers read each toast as it appears (a region created with its text is not
 * reliably announced).
 */
export function Toaster() {
  const t = useT();
  const regionRef = useRef<HTMLElement>(null);
  const [queueWanted, setQueueWanted] = useState(toastQueueRequested);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "F8") return;
      event.preventDefault();
      // Like other toast regions: focus lands on the region, Tab then reaches the toast.
      regionRef.current?.focus();
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);

  useEffect(() => {
    const want = () => setQueueWanted(true);
    // With every toast, lib/toast.ts asks for the renderer at once.
    const stopListening = onToastQueueRequested(want);
    const idle =
      typeof window.requestIdleCallback === "function"
        ? window.requestIdleCallback(want, { timeout: 1000 })
        : window.setTimeout(want, 200);
    return () => {
      stopListening();
      if (typeof window.cancelIdleCallback === "function") window.cancelIdleCallback(idle);
      else window.clearTimeout(idle);
    };
  }, []);

  return (
    <section ref={regionRef} aria-label={t("notifications.region")} aria-live="polite" tabIndex={-1} data-testid="toast-region">
      {queueWanted && (
        <Suspense fallback={null}>
          <ToastQueue />
        </Suspense>
      )}
    </section>
  );
}
