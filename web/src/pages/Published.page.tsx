import { Badge, Button, Card, EmptyState, Skeleton, Stack, Text, UnstyledButton } from "@mantine/core";
import "@mantine/core/styles/Badge.layer.css";
import "@mantine/core/styles/Card.layer.css";
import "@mantine/core/styles/EmptyState.layer.css";
import "@mantine/core/styles/Skeleton.layer.css";
import { useRef, useState } from "react";
import { Link } from "react-router-dom";
import type { Post } from "../../../contract/posts.ts";
import { STATS_RANGE_MAX_DAYS } from "../../../contract/stats.ts";
import { useDrafts } from "../api/drafts.ts";
import { useStats } from "../api/stats.ts";
import { usePublishedPosts } from "../api/posts.ts";
import { BackLink } from "../components/BackLink/BackLink.tsx";
import { DeletePostDialog } from "../components/DeletePostDialog/DeletePostDialog.tsx";
import { FullPageLoader } from "../components/FullPageLoader/FullPageLoader.tsx";
import { IconCalendar, IconExternalLink, IconHeart, IconPencil, IconPin, IconSend } from "../components/Icons/Icons.tsx";
import { LoadError } from "../components/LoadError/LoadError.tsx";
import { PageHeader } from "../components/PageHeader/PageHeader.tsx";
import { PostDetailsDialog } from "../components/PostDetailsDialog/PostDetailsDialog.tsx";
import { ProjectLoadError } from "../components/ProjectLoadError/ProjectLoadError.tsx";
import { TimezonePill } from "../components/TimezonePill/TimezonePill.tsx";
import { useFocusFallback } from "../hooks/useFocusFallback.ts";
import { useProjectRole } from "../hooks/useProjectRole.ts";
import { useRouteProject } from "../hooks/useRouteProject.ts";
import { useLanguage, useT } from "../i18n/i18n.tsx";
import { LOCALES } from "../lib/formatDate.ts";
import { usePageTitle } from "../lib/pageTitle.ts";
import { projectPath } from "../lib/projectSections.ts";
import { formatInstant, projectTimeZone } from "../lib/projectTime.ts";
import type { CalendarPost } from "../lib/recurrence.ts";
import { POSTS_REFETCH_MS } from "../lib/ui.ts";
import classes from "./Published.module.css";

/**
 * Spec §2 Published: what went out, newest first, with the time it was published (in the
 * project's timezone and the interface language) and a link to each channel's message. A
 * post opens in its details (the schedule's dialog), where its text and buttons can be edited
 * (docs/post-format.md "Editing a published post") and it can be deleted.
 */
export default function PublishedPage() {
  const t = useT();
  usePageTitle(t("section.published"));
  const { projectId, project, failed } = useRouteProject();
  // While an edit waits for the approver, the list is read again as the schedule is, so the
  // decision made in Telegram shows up on its own.
  const [waitingEdit, setWaitingEdit] = useState(false);
  const { posts, isLoading, error, mutate, hasMore, isLoadingMore, loadMore } = usePublishedPosts(projectId, {
    refreshInterval: waitingEdit ? POSTS_REFETCH_MS : 0,
  });
  const anyWaiting = posts.some((post) => post.pendingEdit);
  if (anyWaiting !== waitingEdit) setWaitingEdit(anyWaiting);
  const { drafts } = useDrafts(projectId);
  const reactions = usePostReactions(projectId, posts);

  // Dialogs. What a closing dialog shows stays put while it animates out.
  const [details, setDetails] = useState<{ id: number; editing: boolean } | null>(null);
  const [toDelete, setToDelete] = useState<CalendarPost<Post> | null>(null);
  const liveDetails = details === null ? null : (posts.find((post) => post.id === details.id) ?? null);
  const lastDetails = useRef<Post | null>(null);
  if (liveDetails) lastDetails.current = liveDetails;
  const lastToDelete = useRef<CalendarPost<Post> | null>(null);
  if (toDelete) lastToDelete.current = toDelete;
  // Delete closes the details for its own dialog: when that closes, the focus goes back to
  // the post's row (or, the post gone, to the first row).
  const openedFrom = useRef<HTMLElement | null>(null);
  const list = useRef<HTMLOListElement>(null);
  useFocusFallback(toDelete !== null, () =>
    openedFrom.current?.isConnected ? openedFrom.current : list.current?.querySelector<HTMLElement>("button, a"));

  const publishes = useProjectRole(projectId).can("posts.publish");
  const open = (post: Post, editing: boolean) => {
    openedFrom.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setDetails({ id: post.id, editing });
  };

  if (failed) return <ProjectLoadError />;
  if (!project || projectId === null) return <FullPageLoader fullHeight={false} />;
  const timeZone = projectTimeZone(project.timezone);

  return (
    <>
      <PageHeader
        eyebrow={<BackLink to={projectPath(project.id)} label={project.name} />}
        title={t("section.published")}
        description={
          <>
            {t("published.description")}
            <TimezonePill timeZone={timeZone} />
          </>
        }
      />

      {isLoading ? (
        <Card padding={0} role="status" aria-busy="true" aria-label={t("common.loading")}>
          {[0, 1, 2].map((index) => (
            <div key={index} className={classes.row}>
              <Skeleton circle height={36} />
              <Stack gap={8} style={{ flex: 1 }}>
                <Skeleton height={12} width="40%" />
                <Skeleton height={10} width="25%" />
              </Stack>
            </div>
          ))}
        </Card>
      ) : error ? (
        <LoadError message={t("published.loadFailed")} retryLabel={t("common.retry")} onRetry={() => void mutate()} />
      ) : posts.length === 0 ? (
        <Card padding="xl" style={{ borderStyle: "dashed" }} data-testid="published-empty">
          <EmptyState py="xl" variant="light" icon={<IconSend size={26} />} title={t("published.emptyTitle")} description={t("published.emptyText")}>
            <EmptyState.Actions>
              <Button component={Link} to={projectPath(project.id, "schedule")} variant="default" leftSection={<IconCalendar size={18} />}>
                {t("published.openSchedule")}
              </Button>
            </EmptyState.Actions>
          </EmptyState>
        </Card>
      ) : (
        <>
          <Card padding={0} className={classes.list} component="ol" aria-label={t("section.published")} ref={list}>
            {posts.map((post) => (
              <PublishedRow
                key={post.id}
                post={post}
                reactions={reactions.get(post.id)}
                timeZone={timeZone}
                edits={publishes}
                onOpen={(editing) => open(post, editing)}
              />
            ))}
          </Card>
          {hasMore && (
            <Button variant="default" mt="md" mx="auto" display="block" loading={isLoadingMore} onClick={() => void loadMore()}>
              {t("published.showMore")}
            </Button>
          )}
        </>
      )}

      <PostDetailsDialog
        projectId={projectId}
        post={liveDetails ?? lastDetails.current}
        series={null}
        opened={liveDetails !== null}
        timeZone={timeZone}
        drafts={drafts}
        startEditing={details?.editing}
        onClose={() => setDetails(null)}
        onDelete={(post) => {
          setDetails(null);
          setToDelete(post);
        }}
      />
      <DeletePostDialog
        projectId={projectId}
        post={toDelete ?? lastToDelete.current}
        opened={toDelete !== null}
        timeZone={timeZone}
        onClose={() => setToDelete(null)}
        onDeleted={() => setToDelete(null)}
      />
    </>
  );
}

/**
 * Each listed post's reactions, summed over its messages, from the channel's statistics for
 * the span the list covers (docs/statistics.md): the same figures the Statistics page shows.
 */
function usePostReactions(projectId: number | null, posts: Post[]) {
  const oldest = posts.reduce<string | null>((min, post) => {
    const at = post.publishedAt ?? post.scheduledFor;
    return min === null || at < min ? at : min;
  }, null);
  // the hour's start: the key stays the same while the page is open, so the figures are read once
  const to = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 3_600_000).toISOString();
  // the statistics read at most STATS_RANGE_MAX_DAYS: older posts go without their figure
  const earliest = new Date(Date.parse(to) - (STATS_RANGE_MAX_DAYS - 1) * 86_400_000).toISOString();
  const from = oldest === null || oldest < earliest ? earliest : oldest;
  const { stats } = useStats(oldest === null ? null : projectId, { from, to });
  return new Map((stats?.posts ?? []).map((post) => [post.postId, post.reactions.total]));
}

type PublishedRowProps = {
  post: Post;
  /** Its reactions in the channel, once known. */
  reactions?: number;
  timeZone: string;
  /** The channel's text is the publishing roles' to change (docs/teams.md): the others only open it. */
  edits: boolean;
  /** Opens the post's details; `editing`: straight in the edit of its text and buttons. */
  onOpen: (editing: boolean) => void;
};

function PublishedRow({ post, reactions, timeZone, edits, onOpen }: PublishedRowProps) {
  const t = useT();
  const { language } = useLanguage();
  const links = Object.entries(post.publishedLinks ?? {});
  const when = post.publishedAt ?? post.scheduledFor;
  return (
    <li className={classes.row} data-testid="published-post" data-post-id={post.id}>
      {post.imageUrl ? (
        <img className={classes.thumb} src={post.imageUrl} alt="" loading="lazy" data-testid="published-thumb" />
      ) : (
        <span className={classes.mark} aria-hidden="true">
          <IconSend size={16} />
        </span>
      )}
      <div className={classes.body}>
        <div className={classes.heading}>
          <UnstyledButton className={classes.open} aria-haspopup="dialog" onClick={() => onOpen(false)} data-testid="published-open">
            <Text span fw={600} className={classes.title} data-testid="published-title">
              {post.title}
            </Text>
          </UnstyledButton>
          {post.options.pin && (
            <Badge variant="light" radius="sm" tt="none" fw={500} leftSection={<IconPin size={12} />} data-testid="published-pinned">
              {t("published.pinned")}
            </Badge>
          )}
          {reactions !== undefined && reactions > 0 && (
            <Badge variant="default" radius="sm" tt="none" fw={500} leftSection={<IconHeart size={12} />} data-testid="published-reactions"
              aria-label={t("published.reactions", { count: reactions })}>
              {reactions}
            </Badge>
          )}
          {post.pendingEdit && (
            <Badge variant="light" color="yellow" radius="sm" tt="none" fw={500} data-testid="published-pending-edit">
              {t("schedule.details.pendingEdit")}
            </Badge>
          )}
        </div>
        <Text size="sm" c="dimmed" className={classes.meta}>
          <time dateTime={when} data-testid="published-time">
            {formatInstant(when, LOCALES[language], timeZone)}
          </time>
          {post.content.trim() && (
            <>
              <span aria-hidden="true" className={classes.separator}>·</span>
              <span className={classes.snippet}>{post.content.trim()}</span>
            </>
          )}
        </Text>
      </div>
      <div className={classes.links}>
        {post.channelChanged ? (
          // history of a former channel: read-only, its details say why
          <Button variant="subtle" size="xs" color="gray" aria-haspopup="dialog" onClick={() => onOpen(false)} data-testid="published-history">
            {t("published.history")}
          </Button>
        ) : !edits ? null : (
          <Button
            variant="subtle"
            size="xs"
            leftSection={<IconPencil size={14} />}
            aria-label={t("published.editLabel", { title: post.title })}
            aria-haspopup="dialog"
            onClick={() => onOpen(true)}
            data-testid="published-edit"
          >
            {t("published.edit")}
          </Button>
        )}
        {links.length === 0 ? (
          <Text size="xs" c="dimmed">
            {t("published.noLink")}
          </Text>
        ) : (
          links.map(([channel, url]) => (
            <Button
              key={channel}
              component="a"
              href={url}
              target="_blank"
              rel="noreferrer"
              variant="default"
              size="xs"
              rightSection={<IconExternalLink size={14} />}
              aria-label={t("published.openIn", { channel })}
              data-testid="published-link"
            >
              @{channel}
            </Button>
          ))
        )}
      </div>
    </li>
  );
}
