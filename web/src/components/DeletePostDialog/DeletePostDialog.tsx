import { Alert, Button, Checkbox, Group, Modal, Stack, Text } from "@mantine/core";
import "@mantine/core/styles/Alert.layer.css";
import "@mantine/core/styles/Checkbox.layer.css";
import "@mantine/core/styles/CheckboxIndicator.layer.css";
import "@mantine/core/styles/InlineInput.layer.css";
import "@mantine/core/styles/Modal.layer.css";
import { useEffect, useState } from "react";
import type { Post } from "../../../../contract/posts.ts";
import { deletePost } from "../../api/posts.ts";
import { useLanguage, useT } from "../../i18n/i18n.tsx";
import { LOCALES } from "../../lib/formatDate.ts";
import { deletingBreaksFormat } from "../../lib/adDisplay.ts";
import { failureText } from "../../lib/messages.ts";
import { formatInstant } from "../../lib/projectTime.ts";
import { type CalendarPost, isVirtualPost } from "../../lib/recurrence.ts";
import { toastError, toastSuccess } from "../../lib/toast.ts";
import { adFormatText } from "../AdFields/AdFields.tsx";
import { IconAlert } from "../Icons/Icons.tsx";
import { seriesName } from "../PostStatus/PostStatus.tsx";
import { SCHEDULE_DIALOG_WIDTH } from "../../lib/ui.ts";

type DeletePostDialogProps = {
  projectId: number;
  post: CalendarPost<Post> | null;
  opened: boolean;
  timeZone: string;
  onClose: () => void;
  onDeleted: () => void;
};

/**
 * Spec §4/§7 delete confirmation. A post of a series can take the whole series with it; a
 * published post can also be removed from the channel. A virtual occurrence is not a post:
 * deleting it deletes its series (the original id).
 */
export function DeletePostDialog({ projectId, post, opened, timeZone, onClose, onDeleted }: DeletePostDialogProps) {
  const t = useT();
  const { language } = useLanguage();
  const [wholeSeries, setWholeSeries] = useState(false);
  const [fromChannels, setFromChannels] = useState(false);
  const [busy, setBusy] = useState(false);

  const postId = post?.id;
  useEffect(() => {
    if (!opened) return;
    setWholeSeries(false);
    setFromChannels(false);
  }, [opened, postId]);

  if (!post) return null;
  const virtual = isVirtualPost(post);
  const inSeries = virtual || post.isRecurring || post.seriesId !== null;
  const published = post.status === "published";
  // a former channel's post can only leave Pressa: its channel is not the project's to touch
  const fromChannelsAllowed = published && !post.channelChanged;
  const when = formatInstant(post.scheduledFor, LOCALES[language], timeZone);
  const title = post.title || t("schedule.noDraftsAvailable");

  const handleDelete = async () => {
    setBusy(true);
    try {
      await deletePost(projectId, virtual ? post.originalPostId : post.id, {
        deleteFromChannels: fromChannelsAllowed && fromChannels,
        deleteRecurringSeries: inSeries && wholeSeries,
      });
      toastSuccess(t("schedule.postDeleted"), t("schedule.postDeletedText"));
      onDeleted();
    } catch (error) {
      toastError(t("schedule.deleteFailed"), failureText(t, error, "common.tryAgainLater"));
    } finally {
      setBusy(false);
    }
  };

  // an ad still in its term: deleting it now is a refund, so the dialog says so first
  const breaksFormat = !virtual && deletingBreaksFormat(post);
  const sent = published || post.status === "uncertain";
  let message = t("schedule.delete.text", { title, when });
  if (virtual) message = t("schedule.delete.virtualText");
  else if (post.isRecurring) message = t("schedule.delete.seriesText", { series: seriesName(t, post, timeZone) });
  else if (published) message = t("schedule.delete.publishedText", { title });

  return (
    <Modal
      opened={opened}
      onClose={busy ? () => {} : onClose}
      title={virtual || post.isRecurring ? t("schedule.delete.seriesTitle") : t("schedule.delete.title")}
      size={SCHEDULE_DIALOG_WIDTH}
      closeButtonProps={{ "aria-label": t("common.close") }}
    >
      <Stack gap="md">
        <Text size="sm" c="dimmed" style={{ overflowWrap: "anywhere" }}>
          {message}
        </Text>
        {breaksFormat && post.ad && (
          <Alert variant="light" color="orange" radius="md" icon={<IconAlert size={18} />} data-testid="delete-ad-format">
            {t(sent ? "schedule.delete.adSent" : "schedule.delete.adPlanned", {
              format: adFormatText(t, post.ad),
              advertiser: post.ad.advertiser,
            })}
          </Alert>
        )}
        {inSeries && (
          <Checkbox
            checked={wholeSeries}
            onChange={(event) => setWholeSeries(event.currentTarget.checked)}
            label={virtual || post.isRecurring ? t("schedule.delete.seriesPosts") : t("schedule.delete.wholeSeries")}
            description={virtual || post.isRecurring ? t("schedule.delete.seriesPostsHint") : t("schedule.delete.wholeSeriesHint")}
            disabled={busy}
            data-testid="delete-whole-series"
          />
        )}
        {published && !fromChannelsAllowed && (
          <Text size="sm" c="dimmed" data-testid="delete-channel-changed">
            {t("posts.channelChanged")}
          </Text>
        )}
        {fromChannelsAllowed && (
          <Checkbox
            checked={fromChannels}
            onChange={(event) => setFromChannels(event.currentTarget.checked)}
            label={t("schedule.delete.fromChannels")}
            description={t("schedule.delete.fromChannelsHint")}
            disabled={busy}
            data-testid="delete-from-channels"
          />
        )}
        <Group justify="flex-end" gap="sm" mt="xs">
          <Button variant="default" onClick={onClose} disabled={busy} data-autofocus>
            {t("common.cancel")}
          </Button>
          <Button color="red" onClick={() => void handleDelete()} loading={busy} data-testid="confirm-delete">
            {t("common.delete")}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
