import { Button, Group, TextInput } from "@mantine/core";
import { parseDate, toCalendarDate } from "@internationalized/date";
import { useState } from "react";
import type { Post } from "../../../../contract/posts.ts";
import { resendPost } from "../../api/posts.ts";
import { useT } from "../../i18n/i18n.tsx";
import { suggestedMoveTime } from "../../lib/lateness.ts";
import { serverMessage } from "../../lib/messages.ts";
import { clockText, instantOn } from "../../lib/projectTime.ts";
import { toastError, toastSuccess } from "../../lib/toast.ts";
import { IconSend } from "../Icons/Icons.tsx";

type AwaitingActionsProps = { projectId: number; post: Post; timeZone: string };

/**
 * A post awaiting approval (a late one above all): send the approver its preview again, or
 * move it to a new time in the project's zone. Either starts a new round in Telegram.
 */
export function AwaitingActions({ projectId, post, timeZone }: AwaitingActionsProps) {
  const t = useT();
  const [busy, setBusy] = useState<"resend" | "move" | null>(null);
  const [moving, setMoving] = useState(false);
  const [date, setDate] = useState("");
  const [time, setTime] = useState("");

  // the suggestion is taken when the form opens, so a dialog left open suggests a time still ahead
  const toggleMove = () => {
    if (!moving) {
      const at = suggestedMoveTime(post.scheduledFor, timeZone);
      setDate(toCalendarDate(at).toString());
      setTime(clockText(at));
    }
    setMoving(!moving);
  };

  const resend = async () => {
    setBusy("resend");
    try {
      await resendPost(projectId, post.id);
      toastSuccess(t("schedule.details.resent"));
    } catch (error) {
      toastError(t("schedule.details.resendFailed"), serverMessage(t, error));
    } finally {
      setBusy(null);
    }
  };

  const move = async () => {
    let at: string | undefined;
    try {
      at = instantOn(parseDate(date), time, timeZone)?.toAbsoluteString();
    } catch { /* an unfinished date: the server names it */ }
    setBusy("move");
    try {
      await resendPost(projectId, post.id, at ?? "invalid");
      toastSuccess(t("schedule.details.moved"));
      setMoving(false);
    } catch (error) {
      toastError(t("schedule.details.moveFailed"), serverMessage(t, error));
    } finally {
      setBusy(null);
    }
  };

  return (
    <div data-testid="awaiting-actions">
      <Group gap="sm">
        <Button variant="light" color="orange" leftSection={<IconSend size={16} />} onClick={() => void resend()} loading={busy === "resend"}
          disabled={busy !== null} data-testid="post-resend">
          {t("schedule.details.resend")}
        </Button>
        <Button variant="default" onClick={toggleMove} disabled={busy !== null} aria-expanded={moving} data-testid="post-move">
          {t("schedule.details.move")}
        </Button>
      </Group>
      {moving && (
        <form onSubmit={(event) => { event.preventDefault(); void move(); }}>
          <fieldset style={{ border: 0, padding: 0, margin: "0.75rem 0 0" }}>
            <legend style={{ fontSize: "var(--mantine-font-size-sm)", fontWeight: 600 }}>{t("schedule.details.moveTo")}</legend>
            <Group gap="sm" align="end">
              <TextInput type="date" label={t("schedule.details.moveDate")} value={date} onChange={(e) => setDate(e.currentTarget.value)} required data-testid="move-date" />
              <TextInput type="time" label={t("schedule.details.moveTime")} value={time} onChange={(e) => setTime(e.currentTarget.value)} required data-testid="move-time" />
              <Button type="submit" loading={busy === "move"} disabled={busy !== null} data-testid="move-save">{t("schedule.details.moveSave")}</Button>
            </Group>
          </fieldset>
        </form>
      )}
    </div>
  );
}
