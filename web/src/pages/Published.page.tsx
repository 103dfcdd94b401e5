import { Button, Card, EmptyState, Skeleton, Stack, Text } from "@mantine/core";
import "@mantine/core/styles/Card.layer.css";
import "@mantine/core/styles/EmptyState.layer.css";
import "@mantine/core/styles/Skeleton.layer.css";
import { Link } from "react-router-dom";
import type { Post } from "../../../api/contract/posts.ts";
import { usePublishedPosts } from "../api/posts.ts";
import { BackLink } from "../components/BackLink/BackLink.tsx";
import { FullPageLoader } from "../components/FullPageLoader/FullPageLoader.tsx";
import { IconCalendar, IconExternalLink, IconSend } from "../components/Icons/Icons.tsx";
import { LoadError } from "../components/LoadError/LoadError.tsx";
import { PageHeader } from "../components/PageHeader/PageHeader.tsx";
import { ProjectLoadError } from "../components/ProjectLoadError/ProjectLoadError.tsx";
import { TimezonePill } from "../components/TimezonePill/TimezonePill.tsx";
import { useRouteProject } from "../hooks/useRouteProject.ts";
import { useLanguage, useT } from "../i18n/i18n.tsx";
import { LOCALES } from "../lib/formatDate.ts";
import { usePageTitle } from "../lib/pageTitle.ts";
import { projectPath } from "../lib/projectSections.ts";
import { formatInstant, projectTimeZone } from "../lib/projectTime.ts";
import classes from "./Published.module.css";

/**
 * Spec §2 Published: what went out, newest first, with the time it was published (in the
 * project's timezone and the interface language) and a link to each channel's message.
 */
export default function PublishedPage() {
  const t = useT();
  usePageTitle(t("section.published"));
  const { projectId, project, failed } = useRouteProject();
  const { posts, isLoading, error, mutate, hasMore, isLoadingMore, loadMore } = usePublishedPosts(projectId);

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
        <Card padding={0} aria-busy="true" aria-label={t("common.loading")}>
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
          <Card padding={0} className={classes.list} component="ol" aria-label={t("section.published")}>
            {posts.map((post) => (
              <PublishedRow key={post.id} post={post} timeZone={timeZone} />
            ))}
          </Card>
          {hasMore && (
            <Button variant="default" mt="md" mx="auto" display="block" loading={isLoadingMore} onClick={() => void loadMore()}>
              {t("published.showMore")}
            </Button>
          )}
        </>
      )}
    </>
  );
}

function PublishedRow({ post, timeZone }: { post: Post; timeZone: string }) {
  const t = useT();
  const { language } = useLanguage();
  const links = Object.entries(post.publishedLinks ?? {});
  const when = post.publishedAt ?? post.scheduledFor;
  return (
    <li className={classes.row} data-testid="published-post" data-post-id={post.id}>
      <span className={classes.mark} aria-hidden="true">
        <IconSend size={16} />
      </span>
      <div className={classes.body}>
        <Text fw={600} className={classes.title} data-testid="published-title">
          {post.title}
        </Text>
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
