import { Notification } from "@mantine/core";
import { notifications, type NotificationData } from "@mantine/notifications";
import { useRef, useState, type PointerEvent } from "react";
import { useT } from "../../i18n/i18n.tsx";
import { IconAlert, IconCheck } from "../Icons/Icons.tsx";

/** Spec §2/§9: a toast is dismissed by swiping it right by at least 50px. */
export const SWIPE_DISMISS_PX = 50;
// Movement below this is a tap or a jitter, so the close button keeps receiving its click.
const DRAG_START_PX = 6;

type Drag = { pointerId: number; startX: number; active: boolean };

export function SwipeableToast({ data }: { data: NotificationData }) {
  const t = useT();
  const [offset, setOffset] = useState(0);
  const [dragging, setDragging] = useState(false);
  const drag = useRef<Drag | null>(null);
  const { id, title, message, color } = data;
  const hide = () => {
    if (id) notifications.hide(id);
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.pointerType === "mouse" && event.button !== 0) return;
    drag.current = { pointerId: event.pointerId, startX: event.clientX, active: false };
  };

  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    const distance = event.clientX - current.startX;
    if (!current.active && Math.abs(distance) >= DRAG_START_PX) {
      current.active = true;
      setDragging(true);
      event.currentTarget.setPointerCapture(event.pointerId);
    }
    if (current.active) setOffset(Math.max(0, distance));
  };

  const onPointerEnd = (event: PointerEvent<HTMLDivElement>) => {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    drag.current = null;
    setDragging(false);
    if (current.active && event.type === "pointerup" && event.clientX - current.startX >= SWIPE_DISMISS_PX) {
      hide();
    } else {
      setOffset(0);
    }
  };

  // Only a success gets the check mark; errors and warnings get the alert sign.
  const isSuccess = color === "teal";
  return (
    <Notification
      title={title}
      color={color}
      icon={isSuccess ? <IconCheck size={18} /> : <IconAlert size={18} />}
      withBorder
      // The toast region is the live region (aria-live); one announcement is enough.
      role="presentation"
      onClose={hide}
      closeButtonProps={{ "aria-label": t("common.close") }}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerEnd}
      onPointerCancel={onPointerEnd}
      data-swiping={offset > 0 || undefined}
      style={{
        transform: `translateX(${offset}px)`,
        opacity: 1 - Math.min(offset / (SWIPE_DISMISS_PX * 4), 0.6),
        transition: dragging ? "none" : "transform 150ms ease, opacity 150ms ease",
        touchAction: "pan-y",
        userSelect: offset > 0 ? "none" : undefined,
      }}
    >
      {message}
    </Notification>
  );
}
