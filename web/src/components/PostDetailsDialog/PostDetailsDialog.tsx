import { ActionIcon, Alert, Anchor, Badge, Button, Group, Modal, Stack, Text, Tooltip } from "@mantine/core";
import "@mantine/core/styles/Alert.layer.css";
import "@mantine/core/styles/Badge.layer.css";
import "@mantine/core/styles/Modal.layer.css";
import "@mantine/core/styles/Tooltip.layer.css";
import { getLocalTimeZone, now, toCalendarDate } from "@internationalized/date";
import { useEffect, useRef, useState } from "react";
import { Link } from "react-router-dom";
import { SCHEDULE_DIALOG_WIDTH } from "../../lib/ui.ts";
import type { DraftSummary } from "../../../../contract/drafts.ts";
import type { Post } from "../../../../contract/posts.ts";
import { publishPost, resolveUncertainPost, skipOccurrence } from "../../api/posts.ts";
import { useIsPhone } from "../../hooks/useIsPhone.ts";
import { useLanguage, useT } from "../../i18n/i18n.tsx";
import { LOCALES } from "../../lib/formatDate.ts";
import { serverMessage } from "../../lib/messages.ts";
import { reasonText } from "../../lib/postMessages.ts";
import { projectPath } from "../../lib/projectSections.ts";
import { clockText, formatInstant, formatDayLong, zonedAt } from "../../lib/projectTime.ts";
import { type CalendarPost, isVirtualPost } from "../../lib/recurrence.ts";
import { formatEndDay } from "../../lib/seriesEnd.ts";
import { toastError, toastSuccess } from "../../lib/toast.ts";
import {
  IconAlert,
  IconArrowBackUp,
  IconCalendar,
  IconCalendarMinus,
  IconClock,
  IconSettings,
  IconExternalLink,
  IconFileText,
  IconHelpCircle,
  IconPencil,
  IconRepeat,
  IconSend,
  IconTrash,
} from "../Icons/Icons.tsx";
import { PostPreview } from "../PostPreview/PostPreview.tsx";
import type { TFunction } from "../../i18n/i18n.tsx";
import { PostStatusBadge, seriesName, statusKind, statusLook } from "../PostStatus/PostStatus.tsx";
import { PublishedPostEdit } from "../PublishedPostEdit/PublishedPostEdit.tsx";
import classes from "./PostDetailsDialog.module.css";

/** A failed publication is red; a question for the admin is yellow; the rest (a stopped series, an approval that didn't reach the admin) orange. */
const ERROR_COLORS: Partial<Record<ReturnType<typeof statusKind>, string>> = { failed: "red", uncertain: "yellow" };

/** The two answers to "is the uncertain post in the channel?" */
const ANSWERS = [
  { answer: "inChannel", label: "schedule.uncertain.inChannel", testId: "post-in-channel" },
  { answer: "sendAgain", label: "schedule.uncertain.sendAgain", testId: "post-send-again" },
] as const;

/** A post's options as short readable lines: silent, pinned (and for how long), link preview, buttons. */
function optionLines(t: TFunction, post: Post): string[] {
  const options = post.options ?? {};
  const lines: string[] = [];
  if (options.silent) lines.push(t("postOptions.silent"));
  if (options.pin) {
    lines.push(options.unpinAfterHours ? t("schedule.details.pinnedFor", { hours: options.unpinAfterHours }) : t("schedule.details.pinned"));
  }
  if (options.linkPreview === "above") lines.push(`${t("postOptions.linkPreview")}: ${t("postOptions.linkPreviewAbove").toLowerCase()}`);
  if (options.linkPreview === "below") lines.push(`${t("postOptions.linkPreview")}: ${t("postOptions.linkPreviewBelow").toLowerCase()}`);
  const buttons = (options.buttons ?? []).flat();
  if (buttons.length > 0) lines.push(t("schedule.details.buttons", { names: buttons.map((button) => button.text).join(", ") }));
  return lines;
}

/** A series' end in a few words ("After post 5 (2 made so far)", "3 Dec is the last day"), or null when it runs on. */
function seriesEndText(t: TFunction, series: Post, locale: string, timeZone: string): string | null {
  const endsAfter = series.endsAfter ?? null;
  const endsOn = series.endsOn ?? null;
  if (endsAfter !== null) return t("schedule.details.endsAfter", { count: endsAfter, made: series.occurrencesMade ?? 0 });
  if (endsOn !== null) return t("schedule.details.endsOn", { date: formatEndDay(endsOn, locale, now(timeZone).year) });
  return null;
}

/** Only a planned one-time post is sent for approval from here. */
const canPublishPost = (post: CalendarPost<Post>) => !isVirtualPost(post) && !post.isRecurring && post.status === "draft";

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
 * Spec §2/§4 post details: title, time in the project's timezone, status, the text, the
 * linked draft, what went wrong, the channel links of a published post, and the actions:
 * Publish (a planned one-time post only), edit (read-only once published) and delete. An
 * uncertain post also asks the question its admin got in Telegram (in the channel, or
 * send again); whoever answers first decides.
 */
export function PostDetailsDialog({ projectId, post, series, opened, timeZone, drafts, onClose, onEdit, onDelete, startEditing = false }: PostDetailsDialogProps) {
  const t = useT();
  const { language } = useLanguage();
  const isPhone = useIsPhone();
  const [publishing, setPublishing] = useState(false);
  const [answering, setAnswering] = useState<"inChannel" | "sendAgain" | null>(null);
  const [skipping, setSkipping] = useState(false);
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const editTextButton = useRef<HTMLButtonElement>(null);
  const skipButton = useRef<HTMLButtonElement>(null);
  const closedEdit = useRef(false);
  const justPublished = useRef(false);
  const canPublish = post !== null && canPublishPost(post);
  // Publish goes away once the post is sent for approval, and the focus with it: Edit takes it.
  useEffect(() => {
    if (!justPublished.current || publishing || canPublish) return;
    justPublished.current = false;
    if (!document.activeElement || document.activeElement === document.body) editButton.current?.focus();
  });
  // Nothing renders until the first post, which would mount the dialog already open: Mantine
  // would not see it open, note what had the focus, or give it back on closing. So that first
  // post renders the dialog closed once.
  const hasPost = post !== null;
  // The edit of a published post belongs to that post: another post, or closing, drops it.
  const postId = post?.id;
  // a post of a former channel is history: there is nothing to edit (the API refuses it)
  const history = post?.channelChanged === true;
  useEffect(() => {
    setEditing(opened && startEditing && !history);
  }, [postId, opened, startEditing, history]);
  // The edit sent or given up, the focus goes back to the button that opened it.
  useEffect(() => {
    if (editing || !closedEdit.current) return;
    closedEdit.current = false;
    editTextButton.current?.focus();
  }, [editing]);
  const [hadPost, setHadPost] = useState(false);
  useEffect(() => {
    if (hasPost) setHadPost(true);
  }, [hasPost]);
  if (!post) return null;

  const locale = LOCALES[language];
  const virtual = isVirtualPost(post);
  const skipped = virtual && post.skipped;
  const at = zonedAt(post.scheduledFor, timeZone);
  const day = toCalendarDate(at);
  const localZone = getLocalTimeZone();
  const local = zonedAt(post.scheduledFor, localZone);
  const differsLocally = localZone !== timeZone && (clockText(local) !== clockText(at) || toCalendarDate(local).compare(day) !== 0);
  const linkedDraft = post.draftId === null ? undefined : drafts.find((draft) => draft.id === post.draftId);
  // A stopped series has nothing left to edit: it is deleted and scheduled anew once drafts exist.
  const canEdit = !(post.isRecurring && post.status === "failed");
  const links = post.status === "published" ? Object.entries(post.publishedLinks ?? {}) : [];
  const title = skipped
    ? t("schedule.occurrenceSkipped")
    : !virtual && post.isRecurring
      ? seriesName(t, post, timeZone)
      : post.title || t("schedule.noDraftsAvailable");
  const seriesEnd = series ? seriesEndText(t, series, locale, timeZone) : null;

  const isPublished = !virtual && post.status === "published";
  const options = isPublished ? optionLines(t, post) : [];

  const handlePublish = async () => {
    setPublishing(true);
    try {
      await publishPost(projectId, post.id);
      justPublished.current = true;
      toastSuccess(t("schedule.publishSuccess"), t("schedule.publishSuccessText"));
    } catch (error) {
      toastError(t("schedule.publishFailed"), serverMessage(t, error));
    } finally {
      setPublishing(false);
    }
  };

  /** One date of a series skipped (it takes no draft; the series goes on) or brought back. */
  const handleSkip = async () => {
    if (!virtual) return;
    const skip = !post.skipped;
    setSkipping(true);
    try {
      await skipOccurrence(projectId, post.originalPostId, post.scheduledFor, skip);
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

  /** The same question the admin got in Telegram; whoever answers first decides. */
  const handleAnswer = async (inChannel: boolean) => {
    setAnswering(inChannel ? "inChannel" : "sendAgain");
    try {
      const answered = await resolveUncertainPost(projectId, post.id, inChannel);
      if (inChannel && answered.status === "published") toastSuccess(t("schedule.uncertain.markedPublished"));
      else if (!inChannel && answered.status === "approved") toastSuccess(t("schedule.uncertain.willSendAgain"));
      else toastSuccess(t("schedule.uncertain.alreadyAnswered"));
      onClose();
    } catch (error) {
      toastError(t("schedule.uncertain.answerFailed"), serverMessage(t, error));
    } finally {
      setAnswering(null);
    }
  };

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
          </Group>
          <Text size="sm" c="dimmed" mt={8} data-testid="post-details-hint">
            {skipped ? t("schedule.details.skippedHint") : t(statusLook(post).hint)}
          </Text>
        </div>

        <dl className={classes.facts}>
          <dt>
            <IconClock size={16} />
            <span className={classes.factLabel}>{t("schedule.details.when")}</span>
          </dt>
          <dd data-testid="post-details-time">
            <span className={classes.capitalized}>{formatDayLong(day, locale)}</span>, {clockText(at)}
            <Text span size="xs" c="dimmed" display="block">
              {timeZone}
              {differsLocally && ` · ${t("schedule.details.yourTime", { time: `${clockText(local)}` })}`}
            </Text>
          </dd>

          {seriesEnd && (
            <>
              <dt>
                <IconCalendar size={16} />
                <span className={classes.factLabel}>{t("schedule.details.ends")}</span>
              </dt>
              <dd data-testid="post-details-ends">{seriesEnd}</dd>
            </>
          )}

          {(linkedDraft || (virtual && !skipped)) && (
            <>
              <dt>
                <IconFileText size={16} />
                <span className={classes.factLabel}>{t("schedule.details.draft")}</span>
              </dt>
              <dd>
                {linkedDraft ? (
                  <Anchor component={Link} size="sm" to={`${projectPath(projectId, "drafts")}/${linkedDraft.id}`} data-testid="post-details-draft">
                    {linkedDraft.title}
                  </Anchor>
                ) : (
                  <>
                    <Text span size="sm" c="dimmed">
                      {t("schedule.noDraftsAvailable")}
                    </Text>
                    {" · "}
                    {/* Underlined: beside text, colour alone does not tell a link in the dark scheme. */}
                    <Anchor component={Link} size="sm" underline="always" to={projectPath(projectId, "drafts")}>
                      {t("schedule.details.addDrafts")}
                    </Anchor>
                  </>
                )}
              </dd>
            </>
          )}

          {post.status === "published" && post.publishedAt && (
            <>
              <dt>
                <IconSend size={16} />
                <span className={classes.factLabel}>{t("schedule.details.publishedAt")}</span>
              </dt>
              <dd>
                {formatInstant(post.publishedAt, locale, timeZone)}
                {post.editedAt && (
                  <Text span size="xs" c="dimmed" display="block" data-testid="post-details-edited">
                    {t("schedule.details.edited", { time: formatInstant(post.editedAt, locale, timeZone) })}
                  </Text>
                )}
              </dd>
            </>
          )}

          {options.length > 0 && (
            <>
              <dt>
                <IconSettings size={16} />
                <span className={classes.factLabel}>{t("schedule.details.options")}</span>
              </dt>
              <dd data-testid="post-details-options">
                {options.map((line) => (
                  <span key={line} className={classes.optionLine}>
                    {line}
                  </span>
                ))}
              </dd>
            </>
          )}
        </dl>

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
            {post.status === "uncertain" && !virtual && !history && (
              <>
                <Text size="sm" fw={500} mt="sm">
                  {t("schedule.uncertain.question")}
                </Text>
                <Group gap="xs" mt={8}>
                  {ANSWERS.map(({ answer, label, testId }) => (
                    <Button
                      key={answer}
                      size="xs"
                      variant="default"
                      onClick={() => void handleAnswer(answer === "inChannel")}
                      loading={answering === answer}
                      disabled={answering !== null}
                      data-testid={testId}
                    >
                      {t(label)}
                    </Button>
                  ))}
                </Group>
              </>
            )}
          </Alert>
        )}

        {editing && isPublished ? (
          <PublishedPostEdit
            projectId={projectId}
            post={post}
            onDone={() => {
              closedEdit.current = true;
              setEditing(false);
            }}
          />
        ) : (post.content.trim() || post.imageUrl) && (
          <PostPreview
            text={post.content}
            entities={post.entities ?? []}
            imageUrl={post.imageUrl}
            buttons={post.options?.buttons}
          />
        )}

        {history && (
          <Alert variant="light" color="gray" radius="md" icon={<IconAlert size={18} />} data-testid="post-details-channel-changed">
            {t("posts.channelChanged")}
          </Alert>
        )}

        {isPublished && post.pendingEdit && !editing && !history && (
          <div data-testid="post-details-pending-edit">
            <Group gap={6} mb={6}>
              <IconClock size={16} />
              <Text size="sm" fw={500}>
                {t("schedule.details.pendingEdit")}
              </Text>
            </Group>
            <PostPreview text={post.pendingEdit.content} entities={post.pendingEdit.entities} imageUrl={post.imageUrl} buttons={post.pendingEdit.buttons} />
          </div>
        )}

        {isPublished && !editing && !history && (
          <Group justify="flex-end" mt={-8}>
            <Button
              variant="light"
              size="xs"
              leftSection={<IconPencil size={14} />}
              ref={editTextButton}
              onClick={() => setEditing(true)}
              data-testid="post-edit-text"
            >
              {t("schedule.details.editText")}
            </Button>
          </Group>
        )}

        {links.length > 0 && (
          <div>
            <Text size="sm" fw={500} mb={6}>
              {t("schedule.details.links")}
            </Text>
            <Group gap={8}>
              {links.map(([channel, url]) => (
                <Button
                  key={channel}
                  component="a"
                  href={url}
                  target="_blank"
                  rel="noreferrer"
                  variant="light"
                  color="green"
                  size="xs"
                  rightSection={<IconExternalLink size={14} />}
                  data-testid="post-details-link"
                >
                  @{channel}
                </Button>
              ))}
            </Group>
          </div>
        )}

        <div className={classes.actions}>
          <Tooltip label={t("common.delete")}>
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
          </Tooltip>
          <Group gap="sm" ml="auto">
            {virtual && (
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
            {canEdit && onEdit && (
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
                {t("schedule.publish")}
              </Button>
            )}
          </Group>
        </div>
      </Stack>
    </Modal>
  );
}
