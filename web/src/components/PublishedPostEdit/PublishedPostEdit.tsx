import { Button, Group, Stack, Text } from "@mantine/core";
import { useId, useState } from "react";
import { adLabel } from "../../../../contract/ads.ts";
import type { UrlButton } from "../../../../contract/post_options.ts";
import type { Post } from "../../../../contract/posts.ts";
import { requestPostEdit } from "../../api/posts.ts";
import { useProject } from "../../api/projects.ts";
import { useT } from "../../i18n/i18n.tsx";
import { serverMessage } from "../../lib/messages.ts";
import type { FormattedText } from "../../lib/postDocument.ts";
import { cleanButtons, hasButtonErrors } from "../../lib/postOptions.ts";
import { canSendPublishedEdit, publishedEditLimit, publishedEditStart } from "../../lib/publishedEdit.ts";
import { toastError, toastSuccess } from "../../lib/toast.ts";
import { IconSend } from "../Icons/Icons.tsx";
import { UrlButtonsFields } from "../PostOptionsFields/UrlButtonsFields.tsx";
import { LazyPostEditor } from "../PostEditor/LazyPostEditor.tsx";
import { PostPreview } from "../PostPreview/PostPreview.tsx";

type PublishedPostEditProps = {
  projectId: number;
  post: Post;
  /** Called once the edit is sent for approval, or given up. */
  onDone: () => void;
};

/**
 * The edit of a published post (docs/post-format.md "Editing a published post"): its text with its
 * formatting and its URL buttons, previewed as the channel will show them, sent to the
 * approver. The channel's message changes only once the approver approves in Telegram.
 * Used by the post's details, wherever they open (the schedule, the Published page).
 */
export function PublishedPostEdit({ projectId, post, onDone }: PublishedPostEditProps) {
  const t = useT();
  const previewLabelId = useId();
  const [body, setBody] = useState<FormattedText>(() => publishedEditStart(post).body);
  const [buttons, setButtons] = useState<UrlButton[][]>(() => publishedEditStart(post).buttons);
  const [attempted, setAttempted] = useState(false);
  const [sending, setSending] = useState(false);
  const language = useProject(projectId).project?.language ?? "ru";
  const limit = publishedEditLimit(post, language);

  const handleSend = async () => {
    setAttempted(true);
    if (hasButtonErrors(buttons)) return;
    setSending(true);
    try {
      await requestPostEdit(projectId, post, { content: body.text, entities: body.entities, buttons: cleanButtons(buttons) });
      toastSuccess(t("schedule.details.editSent"));
      onDone();
    } catch (error) {
      toastError(t("schedule.details.editFailed"), serverMessage(t, error));
    } finally {
      setSending(false);
    }
  };

  return (
    <Stack gap="sm" data-testid="post-edit-form">
      <LazyPostEditor
        label={t("schedule.details.editLabel")}
        value={body}
        onChange={setBody}
        limit={limit}
        autoFocus
        disabled={sending}
        testId="post-edit-input"
      />
      {/* the label is not the edit's: it stays the message's last line, as the law asks */}
      {post.ad && (
        <div data-testid="post-edit-ad-label">
          <Text size="xs" c="dimmed">
            {t("schedule.details.adLabelKept")}
          </Text>
          <Text size="sm" style={{ overflowWrap: "anywhere" }}>
            {adLabel(post.ad, language)}
          </Text>
        </div>
      )}
      <UrlButtonsFields value={buttons} onChange={setButtons} showAllErrors={attempted} disabled={sending} />
      <section aria-labelledby={previewLabelId}>
        <Text id={previewLabelId} size="sm" fw={500} mb={6}>
          {t("postPreview.title")}
        </Text>
        <PostPreview
          text={body.text}
          entities={body.entities}
          imageUrls={post.imageUrls}
          imageUrl={post.imageUrl}
          buttons={buttons}
          ad={post.ad}
          projectLanguage={language}
        />
      </section>
      <Text size="xs" c="dimmed">
        {t("schedule.details.editHint")}
      </Text>
      <Group gap="sm" justify="flex-end">
        <Button variant="default" onClick={onDone} disabled={sending} data-testid="post-edit-cancel">
          {t("common.cancel")}
        </Button>
        <Button
          leftSection={<IconSend size={16} />}
          onClick={() => void handleSend()}
          loading={sending}
          disabled={!canSendPublishedEdit(body, limit)}
          data-testid="post-edit-send"
        >
          {t("schedule.details.sendEdit")}
        </Button>
      </Group>
    </Stack>
  );
}
