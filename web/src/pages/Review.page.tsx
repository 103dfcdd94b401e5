import { Badge, Button, Card, Group, Skeleton, Stack, Text, Textarea, UnstyledButton } from "@mantine/core";
import "@mantine/core/styles/Badge.layer.css";
import "@mantine/core/styles/Card.layer.css";
import "@mantine/core/styles/Input.layer.css";
import "@mantine/core/styles/Skeleton.layer.css";
import { useId, useState } from "react";
import type { Post } from "../../../contract/posts.ts";
import { COMMENT_MAX, type ReviewDecision } from "../../../contract/review.ts";
import { roleCan } from "../../../contract/team.ts";
import { reviewPost, useReviewQueue } from "../api/review.ts";
import { BackLink } from "../components/BackLink/BackLink.tsx";
import { FullPageLoader } from "../components/FullPageLoader/FullPageLoader.tsx";
import { IconArrowBackUp, IconCheck } from "../components/Icons/Icons.tsx";
import { LoadError } from "../components/LoadError/LoadError.tsx";
import { PageHeader } from "../components/PageHeader/PageHeader.tsx";
import { PostComments } from "../components/PostComments/PostComments.tsx";
import { PostPreview, postPreviewProps } from "../components/PostPreview/PostPreview.tsx";
import { ProjectLoadError } from "../components/ProjectLoadError/ProjectLoadError.tsx";
import { useRouteProject } from "../hooks/useRouteProject.ts";
import { useLanguage, useT } from "../i18n/i18n.tsx";
import { LOCALES } from "../lib/formatDate.ts";
import { serverMessage } from "../lib/messages.ts";
import { usePageTitle } from "../lib/pageTitle.ts";
import { projectPath } from "../lib/projectSections.ts";
import { formatInstant, projectTimeZone } from "../lib/projectTime.ts";
import { toastError, toastSuccess } from "../lib/toast.ts";

/**
 * Posts waiting for review (docs/teams.md "Review"): what authors sent, the soonest due first.
 * A post opens in place with its preview, its comments, and for editors and owners Approve
 * (on to the channel admin in Telegram) or Return with a comment (back to its author's drafts).
 */
export default function ReviewPage() {
  const t = useT();
  usePageTitle(t("review.title"));
  const { projectId, project, failed } = useRouteProject();
  const { queue, isLoaded, error, reload } = useReviewQueue(projectId);
  const [openId, setOpenId] = useState<number | null>(null);

  if (failed) return <ProjectLoadError />;
  if (!project || projectId === null) return <FullPageLoader fullHeight={false} />;
  const timeZone = projectTimeZone(project.timezone);
  const canReview = roleCan(project.role, "posts.review");

  return (
    <>
      <PageHeader
        eyebrow={<BackLink to={projectPath(project.id)} label={project.name} />}
        title={t("review.title")}
        description={t("review.description")}
      />
      {error && !isLoaded ? (
        <LoadError message={t("review.loadFailed")} retryLabel={t("common.retry")} onRetry={() => void reload()} />
      ) : !isLoaded ? (
        <Stack gap="sm" aria-hidden="true">
          <Skeleton height={64} radius="md" />
          <Skeleton height={64} radius="md" />
        </Stack>
      ) : queue.length === 0 ? (
        <Text c="dimmed" data-testid="review-empty">
          {t("review.empty")}
        </Text>
      ) : (
        <Stack gap="sm" component="ul" style={{ listStyle: "none", padding: 0, margin: 0 }} data-testid="review-list">
          {queue.map((post) => (
            <li key={post.id}>
              <ReviewItem
                projectId={projectId}
                post={post}
                timeZone={timeZone}
                projectLanguage={project.language}
                canReview={canReview}
                canComment={roleCan(project.role, "comments.write")}
                open={openId === post.id}
                onToggle={() => setOpenId(openId === post.id ? null : post.id)}
              />
            </li>
          ))}
        </Stack>
      )}
    </>
  );
}

type ReviewItemProps = {
  projectId: number;
  post: Post;
  timeZone: string;
  /** The language the channel's ad label is written in. */
  projectLanguage: string;
  canReview: boolean;
  canComment: boolean;
  open: boolean;
  onToggle: () => void;
};

function ReviewItem({ projectId, post, timeZone, projectLanguage, canReview, canComment, open, onToggle }: ReviewItemProps) {
  const t = useT();
  const { language } = useLanguage();
  const panelId = useId();
  const [comment, setComment] = useState("");
  const [deciding, setDeciding] = useState<ReviewDecision | null>(null);

  const decide = async (decision: ReviewDecision) => {
    setDeciding(decision);
    try {
      await reviewPost(projectId, post.id, decision, comment);
      toastSuccess(t(decision === "approve" ? "review.approved" : "review.returned"), post.title);
    } catch (error) {
      toastError(t("review.failed"), serverMessage(t, error));
    } finally {
      setDeciding(null);
    }
  };

  return (
    <Card withBorder padding="md" radius="md" data-testid="review-item" data-post-id={post.id}>
      <UnstyledButton onClick={onToggle} aria-expanded={open} aria-controls={panelId} style={{ width: "100%" }} data-testid="review-open">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Text fw={600} style={{ overflowWrap: "anywhere" }}>
              {post.title}
            </Text>
            <Text size="sm" c="dimmed">
              {formatInstant(post.scheduledFor, LOCALES[language], timeZone)}
              {post.reviewAuthorEmail ? ` · ${t("review.by", { email: post.reviewAuthorEmail })}` : ""}
            </Text>
          </Stack>
          {post.reviewPublish && (
            <Badge variant="light" color="blue" radius="sm" tt="none">
              {t("review.publishAsked")}
            </Badge>
          )}
        </Group>
      </UnstyledButton>
      {open && (
        <Stack gap="md" mt="md" id={panelId} data-testid="review-details">
          {(post.content.trim() || post.imageUrl) && (
            <PostPreview {...postPreviewProps(post, projectLanguage)} />
          )}
          {/* a reviewer's words go with the decision (one field); others comment here */}
          <PostComments projectId={projectId} postId={post.id} timeZone={timeZone} canWrite={canComment && !canReview} />
          {canReview && (
            <Stack gap="xs">
              <Textarea
                label={t("review.returnComment")}
                value={comment}
                onChange={(event) => setComment(event.currentTarget.value)}
                autosize
                minRows={2}
                maxRows={6}
                maxLength={COMMENT_MAX}
                data-testid="review-comment"
              />
              <Group justify="flex-end" gap="sm">
                <Button
                  variant="default"
                  leftSection={<IconArrowBackUp size={16} />}
                  onClick={() => void decide("return")}
                  loading={deciding === "return"}
                  disabled={deciding !== null}
                  data-testid="review-return"
                >
                  {t("review.return")}
                </Button>
                <Button
                  leftSection={<IconCheck size={16} />}
                  onClick={() => void decide("approve")}
                  loading={deciding === "approve"}
                  disabled={deciding !== null}
                  data-testid="review-approve"
                >
                  {t("review.approve")}
                </Button>
              </Group>
            </Stack>
          )}
        </Stack>
      )}
    </Card>
  );
}
