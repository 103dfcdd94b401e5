import { type RefObject, useEffect, useRef } from "react";
import { useLocation } from "react-router-dom";

/** How long a lazily loaded page may take to show its heading before we stop waiting. */
const HEADING_WAIT_MS = 3_000;

/**
 * After a client-side route change a screen reader would otherwise stay on the link that was
 * pressed (or on nothing, when that link is gone) and never hear that a new page is there:
 * the focus moves to the new page's heading, as a full page load would start at the top.
 * Not on the first load, not when only the query changes (a calendar month), and never out
 * of a dialog or away from a control inside the page that the user has already reached.
 */
export function useFocusOnNavigate(main: RefObject<HTMLElement | null>) {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const root = main.current;
    if (!root) return;
    const untouched = () => {
      const active = document.activeElement;
      if (!active || active === document.body) return true;
      return !root.contains(active) && !active.closest('[role="dialog"]');
    };
    const focusHeading = () => {
      const heading = root.querySelector<HTMLElement>("h1");
      if (!heading) return false;
      if (untouched() && !document.querySelector('[role="dialog"]')) {
        heading.tabIndex = -1;
        heading.focus();
      }
      return true;
    };
    if (focusHeading()) return;
    // The page is still loading (its chunk or its data): wait for its heading to appear.
    const observer = new MutationObserver(() => {
      if (focusHeading()) observer.disconnect();
    });
    observer.observe(root, { childList: true, subtree: true });
    const timer = setTimeout(() => observer.disconnect(), HEADING_WAIT_MS);
    return () => {
      observer.disconnect();
      clearTimeout(timer);
    };
  }, [pathname, main]);
}
