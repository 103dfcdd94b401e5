import { Notifications } from "@mantine/notifications";
import { useEffect, useRef } from "react";
import { useT } from "../../i18n/i18n.tsx";
import { SwipeableToast } from "./SwipeableToast.tsx";

/**
 * Spec §2/§9 toasts: one at a time (the rest wait in a queue), 5 s each, at most 420px wide,
 * swipe right by 50px to dismiss, and F8 moves focus to the toast region.
 */
export function Toaster() {
  const t = useT();
  const regionRef = useRef<HTMLElement>(null);

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

  return (
    <section ref={regionRef} aria-label={t("notifications.region")} tabIndex={-1} data-testid="toast-region">
      <Notifications
        withinPortal={false}
        position="bottom-right"
        limit={1}
        autoClose={5000}
        containerWidth={420}
        allowDragDismiss={false}
        allowScrollDismiss={false}
        renderNotification={(data) => <SwipeableToast data={data} />}
      />
    </section>
  );
}
