import { Alert, Badge, Button, Group, Modal, Stack, Text } from "@mantine/core";
import "@mantine/core/styles/Alert.layer.css";
import "@mantine/core/styles/Badge.layer.css";
import "@mantine/core/styles/Modal.layer.css";
import { useEffect, useState } from "react";
import { Link } from "react-router-dom";
import type { DraftSummary } from "../../../../contract/drafts.ts";
import type { Post } from "../../../../contract/posts.ts";
import { useIsPhone } from "../../hooks/useIsPhone.ts";
import { useT } from "../../i18n/i18n.tsx";
import { postDetailsState, withRole } from "../../lib/postDetails.ts";
import { useProjectRole } from "../../hooks/useProjectRole.ts";
import { reasonText } from "../../lib/postMessages.ts";
import type { CalendarPost } from "../../lib/recurrence.ts";
import { SCHEDULE_DIALOG_WIDTH } from "../../lib/ui.ts";
import { IconAlert, IconHelpCircle, IconMegaphone, IconRepeat } from "../Icons/Icons.tsx";
import { PostComments } from "../PostComments/PostComments.tsx";
import { PostStatusBadge, seriesName, statusKind, statusLook } from "../PostStatus/PostStatus.tsx";
import { AwaitingActions } from "./AwaitingActions.tsx";
import { PostActions } from "./PostActions.tsx";
import { PostFacts, PostLinks } from "./PostFacts.tsx";
import { PostTextSection } from "./PostTextSection.tsx";
import { UncertainResolution } from "./UncertainResolution.tsx";
import classes from "./PostDetailsDialog.module.css";

/** A failed publication is red; a question for the admin is yellow; the rest (a stopped series, an approval that didn't reach the admin) orange. */
const ERROR_COLORS: Partial<Record<ReturnType<typeof statusKind>, string>> = { failed: "red", uncertain: "yellow" };

type PostDetailsDialogProps = {
  projectId: number;
  /** The post shown; kept by the caller while the dialog animates out. */
  post: CalendarPost<Post> | null;
  /** The series the post belongs to (its own for a virtual occurrence), when there is one. */
  series: Post | null;
  opened: boolean;
  timeZone: string;
  drafts: DraftSummary[];
  onClose: () => void;
  /** Opens the post's schedule; without it (the Published page) there is no such button. */
  onEdit?: (post: CalendarPost<Post>) => void;
  onDelete: (post: CalendarPost<Post>) => void;
  /** Opens a published post straight in its edit (the Published page's "Edit"). */
  startEditing?: boolean;
};

/**
 * Spec §2/§4 post details: title, status, the facts (PostFacts), what went wrong with the
 * question an uncertain post asks (UncertainResolution), the text or its edit
 * (PostTextSection), the channel links, and the actions (PostActions). What each piece
 * offers is decided once, by lib/postDetails.ts.
 */
export function PostDetailsDialog({ projectId, post, series, opened, timeZone, drafts, onClose, onEdit, onDelete, startEditing = false }: PostDetailsDialogProps) {
  const t = useT();
  const isPhone = useIsPhone();
  const { role, can } = useProjectRole(projectId);
  // Nothing renders until the first post, which would mount the dialog already open: Mantine
  // would not see it open, note what had the focus, or give it back on closing. So that first
  // post renders the dialog closed once.
  const hasPost = post !== null;
  const [hadPost, setHadPost] = useState(false);
  useEffect(() => {
    if (hasPost) setHadPost(true);
  }, [hasPost]);
  if (!post) return null;

  const state = withRole(postDetailsState(post), post, can);
  const title = state.skipped
    ? t("schedule.occurrenceSkipped")
    : !state.virtual && post.isRecurring
      ? seriesName(t, post, timeZone)
      : post.title || t("schedule.noDraftsAvailable");

  return (
    <Modal
      opened={opened && hadPost}
      onClose={onClose}
      title={<span className={classes.title} data-testid="post-details-title">{title}</span>}
      size={SCHEDULE_DIALOG_WIDTH}
      fullScreen={isPhone}
      closeButtonProps={{ "aria-label": t("common.close") }}
    >
      <Stack gap="md" data-testid="post-details" data-post-id={post.id}>
        <div>
          <Group gap={6}>
            <PostStatusBadge post={post} />
            {series && (
              <Badge variant="default" radius="sm" tt="none" fw={500} leftSection={<IconRepeat size={12} />}>
                {t(series.recurringType === "weekly" ? "schedule.repeat.weekly" : "schedule.repeat.daily")}
              </Badge>
            )}
            {!state.virtual && post.ad && (
              <Badge variant="default" radius="sm" tt="none" fw={500} leftSection={<IconMegaphone size={12} />} data-testid="post-details-ad-badge">
                {t("schedule.adBadge")}
              </Badge>
            )}
          </Group>
          <Text size="sm" c="dimmed" mt={8} data-testid="post-details-hint">
            {state.skipped ? t("schedule.details.skippedHint") : t(statusLook(post).hint)}
          </Text>
          {!state.virtual && post.status === "in_review" && can("posts.review") && (
            <Button component={Link} to={`/project/${projectId}/review`} variant="light" size="xs" mt={12} data-testid="post-open-review">
              {t("review.open")}
            </Button>
          )}
          {!state.virtual && post.status === "scheduled" && !post.isRecurring && state.canResend && (
            <div style={{ marginTop: 12 }}>
              <AwaitingActions projectId={projectId} post={post} timeZone={timeZone} />
            </div>
          )}
        </div>

        <PostFacts projectId={projectId} post={post} series={series} state={state} timeZone={timeZone} drafts={drafts} />

        {post.lastErrorCode && (
          <Alert
            variant="light"
            color={ERROR_COLORS[statusKind(post)] ?? "orange"}
            radius="md"
            icon={post.status === "uncertain" ? <IconHelpCircle size={18} /> : <IconAlert size={18} />}
            data-testid="post-details-error"
            className={classes.error}
          >
            {reasonText(t, post.lastErrorCode, post.lastErrorParams)}
            {state.asksUncertain && <UncertainResolution projectId={projectId} postId={post.id} onAnswered={onClose} />}
          </Alert>
        )}

        <PostTextSection projectId={projectId} post={post} state={state} opened={opened} startEditing={startEditing} />

        <PostLinks links={state.links} />

        {!state.virtual && (
          <PostComments projectId={projectId} postId={post.id} timeZone={timeZone} canWrite={can("comments.write")} />
        )}

        <PostActions
          projectId={projectId}
          post={post}
          state={state}
          onEdit={onEdit}
          onDelete={onDelete}
          reviewFirst={role !== undefined && !can("posts.publish")}
        />
      </Stack>
    </Modal>
  );
}
