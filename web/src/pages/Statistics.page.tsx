import { Button, Card, EmptyState, Skeleton, Stack } from "@mantine/core";
import "@mantine/core/styles/Card.layer.css";
import "@mantine/core/styles/EmptyState.layer.css";
import "@mantine/core/styles/Skeleton.layer.css";
import { Link } from "react-router-dom";
import { channelUsername } from "../../../contract/channels.ts";
import { useChannels } from "../api/channels.ts";
import { useInviteLinks, useStats } from "../api/stats.ts";
import { BackLink } from "../components/BackLink/BackLink.tsx";
import { FullPageLoader } from "../components/FullPageLoader/FullPageLoader.tsx";
import { IconChartBar, IconMegaphone } from "../components/Icons/Icons.tsx";
import { LoadError } from "../components/LoadError/LoadError.tsx";
import { PageHeader } from "../components/PageHeader/PageHeader.tsx";
import { ProjectLoadError } from "../components/ProjectLoadError/ProjectLoadError.tsx";
import { BestTimes } from "../components/Stats/BestTimes.tsx";
import { JoinsPanel, SubscribersPanel } from "../components/Stats/ChartPanels.tsx";
import { InviteLinks } from "../components/Stats/InviteLinks.tsx";
import { PostsTable } from "../components/Stats/PostsTable.tsx";
import { RangePresets, useRangePreset } from "../components/Stats/RangePresets.tsx";
import classes from "../components/Stats/Stats.module.css";
import { TimezonePill } from "../components/TimezonePill/TimezonePill.tsx";
import { useRouteProject } from "../hooks/useRouteProject.ts";
import { useT } from "../i18n/i18n.tsx";
import { usePageTitle } from "../lib/pageTitle.ts";
import { projectPath } from "../lib/projectSections.ts";
import { projectTimeZone } from "../lib/projectTime.ts";

/**
 * The channel's statistics (docs/statistics.md): subscribers, joins and leaves, reactions per
 * post, the best times to post, and the invite links. Only what Telegram gives a bot: no views.
 */
export default function StatisticsPage() {
  const t = useT();
  usePageTitle(t("section.statistics"));
  const { projectId, project, failed } = useRouteProject();
  const { preset, range, choose } = useRangePreset();
  const { channels, isLoading: channelsLoading } = useChannels(projectId);
  const { stats, isLoading, error, mutate } = useStats(projectId, range);
  const { links } = useInviteLinks(projectId);

  if (failed) return <ProjectLoadError />;
  if (!project || projectId === null) return <FullPageLoader fullHeight={false} />;
  const timeZone = projectTimeZone(project.timezone);
  const connected = channels.find((channel) => channel.status === "connected");
  const channel = connected ? (channelUsername(connected.link) ? `@${channelUsername(connected.link)}` : connected.link) : null;

  const body = () => {
    if ((isLoading && !stats) || channelsLoading) {
      return (
        <div className={classes.grid} role="status" aria-busy="true" aria-label={t("common.loading")}>
          <Skeleton height={320} radius="md" />
          <Skeleton height={320} radius="md" />
        </div>
      );
    }
    if (error || !stats) {
      return <LoadError message={t("statistics.loadFailed")} retryLabel={t("common.retry")} onRetry={() => void mutate()} />;
    }
    if (!connected) {
      return (
        <Card padding="xl" style={{ borderStyle: "dashed" }} data-testid="stats-no-channel">
          <EmptyState py="xl" variant="light" icon={<IconChartBar size={26} />} title={t("statistics.noChannelTitle")} description={t("statistics.noChannelText")}>
            <EmptyState.Actions>
              <Button component={Link} to={projectPath(project.id, "channels")} variant="default" leftSection={<IconMegaphone size={18} />}>
                {t("statistics.openChannels")}
              </Button>
            </EmptyState.Actions>
          </EmptyState>
        </Card>
      );
    }
    return (
      <>
        <RangePresets preset={preset} onChoose={choose} testId="stats-range" />
        <div className={classes.grid}>
          <SubscribersPanel stats={stats} range={range} timeZone={timeZone} />
          <JoinsPanel stats={stats} range={range} timeZone={timeZone} />
        </div>
        <Stack gap="md">
          <PostsTable posts={stats.posts} timeZone={timeZone} projectName={project.name} />
          <BestTimes bestTimes={stats.bestTimes} timeZone={timeZone} />
        </Stack>
      </>
    );
  };

  return (
    <>
      <PageHeader
        eyebrow={<BackLink to={projectPath(project.id)} label={project.name} />}
        title={t("section.statistics")}
        description={
          <>
            {t("statistics.description")}
            <TimezonePill timeZone={timeZone} />
          </>
        }
      />
      <div data-testid="stats-page">{body()}</div>
      {!channelsLoading && (connected || links.length > 0) && (
        <div style={{ marginTop: "var(--mantine-spacing-md)" }}>
          <InviteLinks projectId={projectId} projectName={project.name} links={links} channel={channel} timeZone={timeZone} />
        </div>
      )}
    </>
  );
}
