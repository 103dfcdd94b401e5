import { Alert, Button, Group, Text } from "@mantine/core";
import "@mantine/core/styles/Alert.layer.css";
import { useEffect, useReducer, useRef } from "react";
import type { Post } from "../../../../contract/posts.ts";
import { useProject } from "../../api/projects.ts";
import { useT } from "../../i18n/i18n.tsx";
import { type PostDetailsState, TEXT_EDIT_CLOSED, textEditReducer } from "../../lib/postDetails.ts";
import type { CalendarPost } from "../../lib/recurrence.ts";
import { IconAlert, IconClock, IconPencil } from "../Icons/Icons.tsx";
import { PostPreview, postPreviewProps } from "../PostPreview/PostPreview.tsx";
import { PublishedPostEdit } from "../PublishedPostEdit/PublishedPostEdit.tsx";

type PostTextSectionProps = {
  projectId: number;
  post: CalendarPost<Post>;
  state: PostDetailsState;
  opened: boolean;
  /** Opens a published post straight in its edit (the Published page's "Edit"). */
  startEditing: boolean;
};

/**
 * The post's text as the channel shows it, or, for a published post, its edit in place
 * (docs/post-format.md "Editing a published post") with an edit still waiting for approval shown under it.
 * A post of a former channel says so instead and offers no edit.
 */
export function PostTextSection({ projectId, post, state, opened, startEditing }: PostTextSectionProps) {
  const t = useT();
  const [edit, dispatch] = useReducer(textEditReducer, TEXT_EDIT_CLOSED);
  const language = useProject(projectId).project?.language;
  const editTextButton = useRef<HTMLButtonElement>(null);
  const { isPublished, history, canEditText } = state;
  // The edit belongs to the post it was opened on: another post, or closing, drops it.
  const postId = post.id;
  useEffect(() => {
    dispatch({ type: "show", opened, startEditing, history });
  }, [postId, opened, startEditing, history]);
  // The edit sent or given up, the focus goes back to the button that opened it.
  useEffect(() => {
    if (edit.editing || !edit.returnFocus) return;
    dispatch({ type: "focusReturned" });
    editTextButton.current?.focus();
  }, [edit.editing, edit.returnFocus]);

  return (
    <>
      {edit.editing && isPublished ? (
        <PublishedPostEdit projectId={projectId} post={post} onDone={() => dispatch({ type: "done" })} />
      ) : (post.content.trim() || post.imageUrl) && (
        <PostPreview {...postPreviewProps(post, language)} />
      )}

      {history && (
        <Alert variant="light" color="gray" radius="md" icon={<IconAlert size={18} />} data-testid="post-details-channel-changed">
          {t("posts.channelChanged")}
        </Alert>
      )}

      {canEditText && post.pendingEdit && !edit.editing && (
        <div data-testid="post-details-pending-edit">
          <Group gap={6} mb={6}>
            <IconClock size={16} />
            <Text size="sm" fw={500}>
              {t("schedule.details.pendingEdit")}
            </Text>
          </Group>
          <PostPreview
            text={post.pendingEdit.content}
            entities={post.pendingEdit.entities}
            imageUrls={post.imageUrls}
            imageUrl={post.imageUrl}
            buttons={post.pendingEdit.buttons}
            ad={post.ad}
            projectLanguage={language}
          />
        </div>
      )}

      {canEditText && !edit.editing && (
        <Group justify="flex-end" mt={-8}>
          <Button
            variant="light"
            size="xs"
            leftSection={<IconPencil size={14} />}
            ref={editTextButton}
            onClick={() => dispatch({ type: "open" })}
            data-testid="post-edit-text"
          >
            {t("schedule.details.editText")}
          </Button>
        </Group>
      )}
    </>
  );
}
