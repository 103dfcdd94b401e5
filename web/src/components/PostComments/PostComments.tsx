import { Button, Group, Stack, Text, Textarea } from "@mantine/core";
import "@mantine/core/styles/Input.layer.css";
import { useId, useState } from "react";
import { COMMENT_MAX } from "../../../../contract/review.ts";
import { addComment, useComments } from "../../api/review.ts";
import { useLanguage, useT } from "../../i18n/i18n.tsx";
import { LOCALES } from "../../lib/formatDate.ts";
import { serverMessage } from "../../lib/messages.ts";
import { formatInstant } from "../../lib/projectTime.ts";
import { toastError } from "../../lib/toast.ts";

type PostCommentsProps = {
  projectId: number;
  postId: number;
  timeZone: string;
  /** The member may write (every role but a viewer); a viewer reads. */
  canWrite: boolean;
};

/**
 * A post's comments (docs/teams.md "Comments"), oldest first with who wrote them and when, and
 * a field to add one. A comment on a returned post reaches its author by e-mail.
 */
export function PostComments({ projectId, postId, timeZone, canWrite }: PostCommentsProps) {
  const t = useT();
  const { language } = useLanguage();
  const titleId = useId();
  const { comments, isLoaded } = useComments(projectId, postId);
  const [text, setText] = useState("");
  const [sending, setSending] = useState(false);
  const blank = text.trim() === "";

  const send = async () => {
    if (blank || text.length > COMMENT_MAX) return;
    setSending(true);
    try {
      await addComment(projectId, postId, text);
      setText("");
    } catch (error) {
      toastError(t("comments.addFailed"), serverMessage(t, error));
    } finally {
      setSending(false);
    }
  };

  return (
    <section aria-labelledby={titleId} data-testid="post-comments">
      <Text component="h3" size="sm" fw={600} m={0} mb={6} id={titleId}>
        {t("comments.title")}
      </Text>
      {isLoaded && comments.length === 0 && (
        <Text size="sm" c="dimmed" data-testid="post-comments-empty">
          {t("comments.none")}
        </Text>
      )}
      <Stack gap={8} component="ol" style={{ listStyle: "none", padding: 0, margin: 0 }}>
        {comments.map((comment) => (
          <li key={comment.id} data-testid="post-comment">
            <Text size="xs" c="dimmed">
              {comment.author.email ?? t("comments.deletedAccount")} · {formatInstant(comment.createdAt, LOCALES[language], timeZone)}
            </Text>
            <Text size="sm" style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
              {comment.text}
            </Text>
          </li>
        ))}
      </Stack>
      {canWrite && (
        <Stack gap={6} mt="sm">
          <Textarea
            label={t("comments.add")}
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            autosize
            minRows={2}
            maxRows={6}
            maxLength={COMMENT_MAX}
            data-testid="post-comment-text"
          />
          <Group justify="flex-end">
            <Button size="xs" variant="light" onClick={() => void send()} loading={sending} disabled={blank} data-testid="post-comment-send">
              {t("comments.send")}
            </Button>
          </Group>
        </Stack>
      )}
    </section>
  );
}
