import { useEffect, useRef } from "react";

/**
 * A closing dialog gives the focus back to the control that opened it (Mantine's
 * `returnFocus`). When that control is gone by then (the empty list's "New draft" once the
 * first draft exists, the trash button of the row just deleted) the focus would drop to the
 * page's body and the next Tab start again from the top: this hands it to `target()` instead.
 */
export function useFocusFallback(opened: boolean, target: () => HTMLElement | null | undefined) {
  const latest = useRef(target);
  useEffect(() => {
    latest.current = target;
  });
  const opener = useRef<Element | null>(null);
  const wasOpened = useRef(opened);
  useEffect(() => {
    const closed = wasOpened.current && !opened;
    wasOpened.current = opened;
    // Before the dialog takes the focus (Mantine's trap moves it in a moment later). None when
    // the focus was in a dialog that has just closed for this one (Edit in a post's details).
    if (opened) opener.current = document.activeElement === document.body ? null : document.activeElement;
    if (!closed) return;
    // The dialog holds the focus until it has faded out and Mantine has tried to return it.
    // That is 200 ms when the page is at ease, but a busy tab (a calendar redrawn after the
    // delete) stretched it past the 2 s this once waited, and the focus fell to the body.
    // Waiting longer takes nothing from anyone: the focus is only moved off the body.
    // The opener may itself be leaving (a delete button in an edit dialog that closes behind
    // this one): while it is still in the DOM, Mantine may give the focus back to it a moment
    // before it goes, so the check goes on until the focus has settled outside any dialog.
    const deadline = performance.now() + 10_000;
    let frame = requestAnimationFrame(function check() {
      const active = document.activeElement;
      const onBody = !active || active === document.body;
      if (active && !onBody && !active.closest('[role="dialog"]')) return; // settled on the page
      if (onBody && !opener.current?.isConnected) return void latest.current()?.focus();
      if (performance.now() < deadline) frame = requestAnimationFrame(check);
      else if (onBody) latest.current()?.focus();
    });
    return () => cancelAnimationFrame(frame);
  }, [opened]);
}
