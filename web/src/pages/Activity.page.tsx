import { Button, Card, EmptyState, NativeSelect, Skeleton, Stack, Text } from "@mantine/core";
import "@mantine/core/styles/Card.layer.css";
import "@mantine/core/styles/EmptyState.layer.css";
import "@mantine/core/styles/Skeleton.layer.css";
import { useState } from "react";
import useSWR from "swr";
import { ACTIVITY_ACTIONS, type ActivityAction, type ActivityItem } from "../../../contract/activity.ts";
import type { Members } from "../../../contract/team.ts";
import { useActivity } from "../api/activity.ts";
import { BackLink } from "../components/BackLink/BackLink.tsx";
import { FullPageLoader } from "../components/FullPageLoader/FullPageLoader.tsx";
import { IconCheck, IconClock, IconFileText, IconMegaphone, IconSend, IconSettings, IconUsers, IconXCircle } from "../components/Icons/Icons.tsx";
import { LoadError } from "../components/LoadError/LoadError.tsx";
import { PageHeader } from "../components/PageHeader/PageHeader.tsx";
import { ProjectLoadError } from "../components/ProjectLoadError/ProjectLoadError.tsx";
import { TimezonePill } from "../components/TimezonePill/TimezonePill.tsx";
import { useRouteProject } from "../hooks/useRouteProject.ts";
import { type TFunction, type TranslationKey, useLanguage, useT } from "../i18n/i18n.tsx";
import { LOCALES } from "../lib/formatDate.ts";
import { usePageTitle } from "../lib/pageTitle.ts";
import { projectPath } from "../lib/projectSections.ts";
import { formatInstant, projectTimeZone } from "../lib/projectTime.ts";
import classes from "./Activity.module.css";

const ROLE_WORDS = {
  owner: "activity.role.owner",
  editor: "activity.role.editor",
  author: "activity.role.author",
  viewer: "activity.role.viewer",
} as const satisfies Record<string, TranslationKey>;

const text = (value: unknown) => (typeof value === "string" ? value : "");
const role = (t: TFunction, value: unknown) => (value as string) in ROLE_WORDS ? t(ROLE_WORDS[value as keyof typeof ROLE_WORDS]) : text(value);

/** What happened, as one sentence in the interface language, from the entry's action and details. */
export function activitySentence(t: TFunction, item: ActivityItem, when: (iso: string) => string): string {
  const d = item.details;
  const title = text(d.title) || t("activity.untitled");
  switch (item.action) {
    case "member.invited":
    case "member.joined":
      return t(`activity.${item.action}`, { email: text(d.email), role: role(t, d.role) });
    case "member.roleChanged":
      return t("activity.member.roleChanged", { email: text(d.email), from: role(t, d.from), to: role(t, d.to) });
    case "member.removed":
      return t(d.left ? "activity.member.left" : "activity.member.removed", { email: text(d.email) });
    case "channel.connected":
    case "channel.disconnected":
      return t(`activity.${item.action}`, { channel: text(d.channel) });
    case "post.scheduled":
      return t("activity.post.scheduled", { title, when: typeof d.scheduledFor === "string" ? when(d.scheduledFor) : "" });
    case "project.updated":
      return t("activity.project.updated");
    case "post.reviewed":
      return t(d.decision === "return" ? "activity.post.reviewedReturned" : "activity.post.reviewedApproved", { title });
    default:
      return t(`activity.${item.action}`, { title });
  }
}

function actorName(t: TFunction, item: ActivityItem): string {
  const actor = item.actor;
  if (actor.type === "user") return actor.email ?? t("activity.actor.formerMember");
  if (actor.type === "telegram") return t("activity.actor.telegram", { handle: actor.handle ?? String(actor.userId) });
  return t("activity.actor.system");
}

function ActionMark({ action }: { action: ActivityAction }) {
  const size = 16;
  if (action.startsWith("member.")) return <IconUsers size={size} />;
  if (action.startsWith("channel.")) return <IconMegaphone size={size} />;
  if (action.startsWith("draft.")) return <IconFileText size={size} />;
  if (action === "post.published") return <IconSend size={size} />;
  if (action === "post.approved" || action === "post.reviewed") return <IconCheck size={size} />;
  if (action === "post.rejected" || action === "post.failed" || action === "post.deleted") return <IconXCircle size={size} />;
  if (action === "project.updated") return <IconSettings size={size} />;
  return <IconClock size={size} />;
}

/**
 * A project's activity (docs/teams.md): who did what, newest first — a member, the channel's
 * approver in Telegram, or Pressa itself (a series, autopilot, a send) — filtered by member and
 * by kind, a page at a time. Every member reads it.
 */
export default function ActivityPage() {
  const t = useT();
  const { language } = useLanguage();
  usePageTitle(t("section.activity"));
  const { projectId, project, failed } = useRouteProject();
  const [actor, setActor] = useState<number | null>(null);
  const [action, setAction] = useState<ActivityAction | null>(null);
  const { items, isLoading, error, mutate, hasMore, isLoadingMore, loadMore } = useActivity(projectId, { actor, action });
  const { data: team } = useSWR<Members>(projectId === null ? null : `/api/projects/${projectId}/members`);

  if (failed) return <ProjectLoadError />;
  if (!project || projectId === null) return <FullPageLoader fullHeight={false} />;
  const timeZone = projectTimeZone(project.timezone);
  const when = (iso: string) => formatInstant(iso, LOCALES[language], timeZone);

  return (
    <>
      <PageHeader
        eyebrow={<BackLink to={projectPath(project.id)} label={project.name} />}
        title={t("section.activity")}
        description={
          <>
            {t("activity.description")}
            <TimezonePill timeZone={timeZone} />
          </>
        }
      />
      <div className={classes.filters}>
        <NativeSelect
          label={t("activity.filter.member")}
          value={actor === null ? "" : String(actor)}
          onChange={(event) => setActor(event.currentTarget.value === "" ? null : Number(event.currentTarget.value))}
          data={[{ value: "", label: t("activity.filter.anyone") },
            ...(team?.members ?? []).map((m) => ({ value: String(m.userId), label: m.email }))]}
          data-testid="activity-member"
        />
        <NativeSelect
          label={t("activity.filter.kind")}
          value={action ?? ""}
          onChange={(event) => setAction(event.currentTarget.value === "" ? null : event.currentTarget.value as ActivityAction)}
          data={[{ value: "", label: t("activity.filter.anything") },
            ...ACTIVITY_ACTIONS.map((a) => ({ value: a, label: t(`activity.kind.${a}`) }))]}
          data-testid="activity-kind"
        />
      </div>
      {isLoading ? (
        <Card padding={0} role="status" aria-busy="true" aria-label={t("common.loading")}>
          {[0, 1, 2].map((index) => (
            <div key={index} className={classes.row}>
              <Skeleton circle height={32} />
              <Stack gap={8} style={{ flex: 1 }}>
                <Skeleton height={12} width="50%" />
                <Skeleton height={10} width="30%" />
              </Stack>
            </div>
          ))}
        </Card>
      ) : error ? (
        <LoadError message={t("activity.loadFailed")} retryLabel={t("common.retry")} onRetry={() => void mutate()} />
      ) : items.length === 0 ? (
        <Card padding="xl" style={{ borderStyle: "dashed" }} data-testid="activity-empty">
          <EmptyState py="xl" variant="light" icon={<IconClock size={26} />} title={t("activity.emptyTitle")}
            description={actor !== null || action !== null ? t("activity.emptyFiltered") : t("activity.emptyText")} />
        </Card>
      ) : (
        <>
          <Card padding={0} className={classes.list} component="ol" aria-label={t("section.activity")} data-testid="activity-list">
            {items.map((item) => (
              <li key={item.id} className={classes.row}>
                <span className={classes.mark} aria-hidden="true"><ActionMark action={item.action} /></span>
                <div className={classes.body}>
                  <Text size="sm" fw={500}>{activitySentence(t, item, when)}</Text>
                  <Text size="xs" c="dimmed">
                    {actorName(t, item)} · <time dateTime={item.at}>{when(item.at)}</time>
                  </Text>
                </div>
              </li>
            ))}
          </Card>
          {hasMore && (
            <Button variant="default" mt="md" mx="auto" display="block" loading={isLoadingMore} onClick={() => void loadMore()}>
              {t("activity.showMore")}
            </Button>
          )}
        </>
      )}
    </>
  );
}
