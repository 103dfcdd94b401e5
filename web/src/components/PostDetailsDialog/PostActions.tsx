import { ActionIcon, Button, Group, Tooltip } from "@mantine/core";
import "@mantine/core/styles/Tooltip.layer.css";
import { useEffect, useRef, useState } from "react";
import type { Post } from "../../../../contract/posts.ts";
import { publishPost, skipOccurrence } from "../../api/posts.ts";
import { useT } from "../../i18n/i18n.tsx";
import { serverMessage } from "../../lib/messages.ts";
import { type PostDetailsState, skipRequest } from "../../lib/postDetails.ts";
import { type CalendarPost, isVirtualPost } from "../../lib/recurrence.ts";
import { toastError, toastSuccess } from "../../lib/toast.ts";
import { IconArrowBackUp, IconCalendarMinus, IconPencil, IconSend, IconTrash } from "../Icons/Icons.tsx";
import classes from "./PostDetailsDialog.module.css";

type PostActionsProps = {
  projectId: number;
  post: CalendarPost<Post>;
  state: PostDetailsState;
  /** Opens the post's schedule; without it (the Published page) there is no such button. */
  onEdit?: (post: CalendarPost<Post>) => void;
  onDelete: (post: CalendarPost<Post>) => void;
  /** The member's role sends posts to review, not to the approver (an author): Publish says so. */
  reviewFirst?: boolean;
};

/**
 * The dialog's buttons: delete; skip a series' date or bring it back; open the schedule
 * (read-only once published); and Publish, which sends a planned one-time post for approval.
 */
export function PostActions({ projectId, post, state, onEdit, onDelete, reviewFirst = false }: PostActionsProps) {
  const t = useT();
  const [publishing, setPublishing] = useState(false);
  const [skipping, setSkipping] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const skipButton = useRef<HTMLButtonElement>(null);
  const justPublished = useRef(false);
  const { canPublish, skipped } = state;
  // Publish goes away once the post is sent for approval, and the focus with it: Edit takes it.
  useEffect(() => {
    if (!justPublished.current || publishing || canPublish) return;
    justPublished.current = false;
    if (!document.activeElement || document.activeElement === document.body) editButton.current?.focus();
  });

  const handlePublish = async () => {
    setPublishing(true);
    try {
      await publishPost(projectId, post.id);
      justPublished.current = true;
      if (reviewFirst) toastSuccess(t("review.sentForReview"), t("review.sentForReviewText"));
      else toastSuccess(t("schedule.publishSuccess"), t("schedule.publishSuccessText"));
    } catch (error) {
      toastError(t("schedule.publishFailed"), serverMessage(t, error));
    } finally {
      setPublishing(false);
    }
  };

  /** One date of a series skipped (it takes no draft; the series goes on) or brought back. */
  const handleSkip = async () => {
    if (!isVirtualPost(post)) return;
    const { seriesId, at, skip } = skipRequest(post);
    setSkipping(true);
    try {
      await skipOccurrence(projectId, seriesId, at, skip);
      if (skip) toastSuccess(t("schedule.details.skipped"), t("schedule.details.skippedText"));
      else toastSuccess(t("schedule.details.unskipped"));
    } catch (error) {
      toastError(t(skip ? "schedule.details.skipFailed" : "schedule.details.unskipFailed"), serverMessage(t, error));
    } finally {
      setSkipping(false);
      // While it was loading the button was disabled, which drops the focus: it goes back to it.
      requestAnimationFrame(() => {
        if (!document.activeElement || document.activeElement === document.body) skipButton.current?.focus();
      });
    }
  };

  return (
    <div className={classes.actions}>
      {state.canDelete && <Tooltip label={t("common.delete")}>
        <ActionIcon
          variant="subtle"
          color="red"
          size={36}
          onClick={() => onDelete(post)}
          disabled={publishing}
          aria-label={t("common.delete")}
          data-testid="post-delete"
        >
          <IconTrash size={18} />
        </ActionIcon>
      </Tooltip>}
      <Group gap="sm" ml="auto">
        {state.virtual && state.canSkip && (
          // One button for both ways, so the focus has one place to come back to when the date flips.
          <Button
            ref={skipButton}
            variant="default"
            leftSection={skipped ? <IconArrowBackUp size={16} /> : <IconCalendarMinus size={16} />}
            onClick={() => void handleSkip()}
            loading={skipping}
            disabled={publishing}
            data-testid="post-skip"
            data-skipped={skipped || undefined}
          >
            {skipped ? t("schedule.details.unskip") : t("schedule.details.skip")}
          </Button>
        )}
        {state.canEditSchedule && onEdit && (
          <Button
            ref={editButton}
            variant="default"
            leftSection={post.status === "published" ? undefined : <IconPencil size={16} />}
            onClick={() => onEdit(post)}
            disabled={publishing}
            data-testid="post-edit"
          >
            {post.status === "published" ? t("schedule.details.viewSchedule") : t("common.edit")}
          </Button>
        )}
        {canPublish && (
          <Button leftSection={<IconSend size={16} />} onClick={() => void handlePublish()} loading={publishing} data-testid="post-publish">
            {reviewFirst ? t("review.sendForReview") : t("schedule.publish")}
          </Button>
        )}
      </Group>
    </div>
  );
}
