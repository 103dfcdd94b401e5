import { Button, Card, EmptyState, SegmentedControl, Stack, Text } from "@mantine/core";
import "@mantine/core/styles/SegmentedControl.layer.css";
import "@mantine/core/styles/Card.layer.css";
import "@mantine/core/styles/EmptyState.layer.css";
import { type CalendarDate, endOfMonth, endOfWeek, startOfMonth, startOfWeek, toCalendarDate, toZoned } from "@internationalized/date";
import { useEffect, useMemo, useRef, useState } from "react";
import { SCHEDULE_DIALOG_WIDTH } from "../lib/ui.ts";
import type { Draft } from "../../../contract/drafts.ts";
import type { Post } from "../../../contract/posts.ts";
import { useChannels } from "../api/channels.ts";
import { useContentPlans } from "../api/contentPlans.ts";
import { useDraft, useDrafts } from "../api/drafts.ts";
import { prefetchPosts, type PostsRange, usePost, usePosts } from "../api/posts.ts";
import { BackLink } from "../components/BackLink/BackLink.tsx";
import { Banner } from "../components/Banner/Banner.tsx";
import { ContentPlan } from "../components/ContentPlan/ContentPlan.tsx";
import { DeletePostDialog } from "../components/DeletePostDialog/DeletePostDialog.tsx";
import { DraftDialog } from "../components/DraftDialog/DraftDialog.tsx";
import { FullPageLoader } from "../components/FullPageLoader/FullPageLoader.tsx";
import { IconAlert, IconPlus } from "../components/Icons/Icons.tsx";
import { LoadError } from "../components/LoadError/LoadError.tsx";
import { NoChannelBanner } from "../components/NoChannelBanner/NoChannelBanner.tsx";
import { PageHeader } from "../components/PageHeader/PageHeader.tsx";
import { PostDetailsDialog } from "../components/PostDetailsDialog/PostDetailsDialog.tsx";
import { ProjectLoadError } from "../components/ProjectLoadError/ProjectLoadError.tsx";
import { seriesName } from "../components/PostStatus/PostStatus.tsx";
import { AGENDA_DAYS, ScheduleAgenda, ScheduleCalendar, ScheduleLegend } from "../components/ScheduleCalendar/ScheduleCalendar.tsx";
import { ScheduleDialog, type ScheduleTarget } from "../components/ScheduleDialog/ScheduleDialog.tsx";
import { TimezonePill } from "../components/TimezonePill/TimezonePill.tsx";
import { useDetailsParam } from "../hooks/useDetailsParam.ts";
import { useFocusFallback } from "../hooks/useFocusFallback.ts";
import { useProjectNow } from "../hooks/useProjectNow.ts";
import { useProjectRole } from "../hooks/useProjectRole.ts";
import { useRouteProject } from "../hooks/useRouteProject.ts";
import { useT } from "../i18n/i18n.tsx";
import { usePageTitle } from "../lib/pageTitle.ts";
import { reasonText } from "../lib/postMessages.ts";
import { projectPath } from "../lib/projectSections.ts";
import { clockText, projectTimeZone, zonedAt } from "../lib/projectTime.ts";
import { type CalendarPost, calendarPosts, isVirtualPost, seriesOccurrences, stoppedSeries, wholeOccurrence } from "../lib/recurrence.ts";
import classes from "./Schedule.module.css";

/**
 * Spec §2 Schedule: the project's content calendar. Times are the project's (UTC when it
 * has no timezone); posts refetch every 5 seconds, so approvals and publications made in
 * Telegram show up on their own.
 */
/** The instants the month's grid shows, its leading and trailing days included. */
function gridRange(month: CalendarDate, timeZone: string): PostsRange {
  const first = startOfWeek(startOfMonth(month), "en-GB", "mon");
  const afterLast = endOfWeek(endOfMonth(month), "en-GB", "mon").add({ days: 1 });
  return { from: toZoned(first, timeZone).toDate().toISOString(), to: toZoned(afterLast, timeZone).toDate().toISOString() };
}

/** The days the agenda lists: today and the 13 after it. */
function agendaRange(today: CalendarDate, timeZone: string): PostsRange {
  return {
    from: toZoned(today, timeZone).toDate().toISOString(),
    to: toZoned(today.add({ days: AGENDA_DAYS }), timeZone).toDate().toISOString(),
  };
}

type ScheduleView = "calendar" | "agenda";
// The owner's choice of view is kept on this device, like the theme and the language.
const VIEW_STORAGE_KEY = "pressa-schedule-view";

function storedView(): ScheduleView {
  try {
    return window.localStorage.getItem(VIEW_STORAGE_KEY) === "agenda" ? "agenda" : "calendar";
  } catch {
    return "calendar";
  }
}

export default function SchedulePage() {
  const t = useT();
  usePageTitle(t("section.schedule"));
  const { projectId, project, failed } = useRouteProject();
  const { channels, isLoading: channelsLoading, error: channelsError, mutate: reloadChannels } = useChannels(projectId);
  const { drafts, isLoading: draftsLoading, error: draftsError, mutate: reloadDrafts } = useDrafts(projectId);
  useContentPlans(projectId); // the content plan's slots load alongside, not after the calendar

  const timeZone = projectTimeZone(project?.timezone);
  const current = useProjectNow(timeZone);
  const today = toCalendarDate(current);
  const [monthShift, setMonthShift] = useState(0);
  const [view, setView] = useState<ScheduleView>(storedView);
  const chooseView = (next: ScheduleView) => {
    setView(next);
    try {
      window.localStorage.setItem(VIEW_STORAGE_KEY, next);
    } catch {
      // a private window without storage still switches, for this visit
    }
  };
  const month = startOfMonth(today).add({ months: monthShift });
  // The calendar reads the month it shows (docs/performance.md), once the project's zone is known;
  // the agenda reads its two weeks.
  const range = view === "agenda" ? agendaRange(today, timeZone) : gridRange(month, timeZone);
  const { posts, isLoaded: postsLoaded, error: postsError, mutate: reloadPosts } = usePosts(project ? projectId : null, range);
  // The months on either side are fetched ahead, so moving to them shows them at once.
  const monthKey = month.toString();
  useEffect(() => {
    if (!project || projectId === null) return;
    prefetchPosts(projectId, gridRange(month.add({ months: 1 }), timeZone));
    prefetchPosts(projectId, gridRange(month.subtract({ months: 1 }), timeZone));
    // the month is rebuilt every render; its text identifies it
  }, [project, projectId, monthKey, timeZone]);
  // Occurrences run to the last day the grid shows (the end of the month's last week).
  const lastShownDay = view === "agenda" ? today.add({ days: AGENDA_DAYS - 1 }) : endOfWeek(endOfMonth(month), "en-GB", "mon");
  const todayKey = today.toString();
  const untilKey = lastShownDay.toString();
  const shown = useMemo(
    () => calendarPosts(posts, drafts, { timeZone, today, until: lastShownDay }),
    // The dates are rebuilt every render; their text is what identifies them.
    [posts, drafts, timeZone, todayKey, untilKey],
  );
  const stopped = stoppedSeries(posts);
  // a viewer reads the calendar; planning is for the roles that write posts
  const plans = useProjectRole(projectId).can("posts.write");

  // Dialogs. What a closing dialog shows stays put while it animates out.
  const [detailsId, setDetailsId] = useDetailsParam();
  const [scheduleTarget, setScheduleTarget] = useState<ScheduleTarget | null>(null);
  const [draftDialogOpen, setDraftDialogOpen] = useState(false);
  const [createdDraft, setCreatedDraft] = useState<Draft | null>(null);
  const [toDelete, setToDelete] = useState<CalendarPost<Post> | null>(null);
  // The grid has each post's lean view; the details dialog shows the whole post (its series,
  // and for an occurrence to come the whole draft it takes), loaded as it opens and refetched
  // every 5 seconds while it stays open (a status moves on).
  const picked = detailsId === null ? null : (shown.find((post) => post.id === detailsId) ?? posts.find((post) => post.id === detailsId) ?? null);
  const pickedOccurrence = picked && isVirtualPost(picked) ? picked : null;
  // a post not in the month shown (opened by its link) loads by its id
  const { post: wholePost } = usePost(projectId, detailsId !== null && !pickedOccurrence ? detailsId : null);
  const seriesId = picked === null ? (wholePost ? (wholePost.isRecurring ? wholePost.id : wholePost.seriesId) : null) : pickedOccurrence ? pickedOccurrence.originalPostId : picked.isRecurring ? picked.id : picked.seriesId;
  const { post: wholeSeries } = usePost(projectId, seriesId);
  const { draft: occurrenceDraft } = useDraft(projectId, pickedOccurrence?.draftId ?? null);
  const liveDetails: CalendarPost<Post> | null = pickedOccurrence
    ? wholeSeries && (pickedOccurrence.draftId === null || occurrenceDraft?.id === pickedOccurrence.draftId)
      ? wholeOccurrence(pickedOccurrence, wholeSeries, occurrenceDraft ?? null)
      : null
    : (wholePost ?? null);
  const lastDetails = useRef<CalendarPost<Post> | null>(null);
  if (liveDetails) lastDetails.current = liveDetails;
  const lastTarget = useRef<ScheduleTarget | null>(null);
  if (scheduleTarget) lastTarget.current = scheduleTarget;
  const lastToDelete = useRef<CalendarPost<Post> | null>(null);
  if (toDelete) lastToDelete.current = toDelete;
  // Edit and Delete in a post's details close the details and open another dialog: when that
  // one closes, the focus goes back to the post's chip (or, the post gone, to "New post").
  const openedFrom = useRef<HTMLElement | null>(null);
  const newPostButton = useRef<HTMLButtonElement>(null);
  const backToCalendar = () => (openedFrom.current?.isConnected ? openedFrom.current : newPostButton.current);
  useFocusFallback(scheduleTarget !== null, backToCalendar);
  useFocusFallback(toDelete !== null, backToCalendar);

  if (failed) return <ProjectLoadError />;
  const loading = !project || projectId === null || channelsLoading || (!postsLoaded && !postsError) || draftsLoading;

  // The whole series of the post in the details dialog (the only place Edit and Delete start from).
  const seriesOf = (post: CalendarPost<Post> | null): Post | null => {
    if (!post) return null;
    const id = isVirtualPost(post) ? post.originalPostId : post.isRecurring ? post.id : post.seriesId;
    if (id === null) return null;
    if (!isVirtualPost(post) && post.isRecurring) return post;
    return wholeSeries?.id === id ? wholeSeries : null;
  };

  const openCreate = (date: CalendarDate) => {
    setCreatedDraft(null);
    setScheduleTarget({ mode: "create", date });
  };

  // A series is edited at its next occurrence (the date it would run next), not its first date.
  const openEdit = (post: CalendarPost<Post>) => {
    setDetailsId(null);
    setCreatedDraft(null);
    const series = isVirtualPost(post) || post.isRecurring ? seriesOf(post) : null;
    if (series) {
      // a skipped date is not when it runs next
      const next = seriesOccurrences(series, { timeZone, today, until: today.add({ weeks: 2 }) }).find((occurrence) => !occurrence.skipped);
      const at = next?.at ?? zonedAt(post.scheduledFor, timeZone);
      setScheduleTarget({ mode: "edit", post: series, date: toCalendarDate(at), time: clockText(at) });
      return;
    }
    const at = zonedAt(post.scheduledFor, timeZone);
    setScheduleTarget({ mode: "edit", post, date: toCalendarDate(at), time: clockText(at) });
  };

  const openDelete = (post: CalendarPost<Post>) => {
    setDetailsId(null);
    setToDelete(post);
  };

  // A channel still waiting for its approver's Allow cannot be published to yet.
  const hasChannel = channels.some((channel) => channel.status === "connected");
  const ready = !loading && !channelsError && !(postsError && !postsLoaded) && !draftsError;

  return (
    <>
      <PageHeader
        eyebrow={project ? <BackLink to={projectPath(project.id)} label={project.name} /> : undefined}
        title={t("section.schedule")}
        description={
          <>
            {t("schedule.description")}
            <TimezonePill timeZone={timeZone} now={current} />
          </>
        }
        actions={
          ready && plans ? (
            <Button ref={newPostButton} leftSection={<IconPlus size={18} />} onClick={() => openCreate(today)} data-testid="new-post">
              {t("schedule.newPost")}
            </Button>
          ) : undefined
        }
      />

      {loading ? (
        <FullPageLoader fullHeight={false} />
      ) : channelsError ? (
        <LoadError message={t("channels.loadFailed")} retryLabel={t("common.retry")} onRetry={() => void reloadChannels()} />
      ) : postsError && !postsLoaded ? (
        <LoadError message={t("schedule.loadFailed")} retryLabel={t("common.retry")} onRetry={() => void reloadPosts()} />
      ) : draftsError ? (
        <LoadError message={t("drafts.loadFailed")} retryLabel={t("common.retry")} onRetry={() => void reloadDrafts()} />
      ) : (
        <Stack gap="md">
          {!hasChannel && <NoChannelBanner projectId={projectId!} />}
          {stopped.map((series) => (
            <Banner
              key={series.id}
              tone="warning"
              icon={IconAlert}
              title={t("schedule.seriesStoppedTitle", { series: seriesName(t, series, timeZone) })}
              action={{ label: t("schedule.details.open"), onClick: () => setDetailsId(series.id) }}
              testId="series-stopped"
            >
              <Text size="sm" c="dimmed">
                {reasonText(t, series.lastErrorCode ?? "schedule.seriesOutOfDrafts", series.lastErrorParams)}
              </Text>
            </Banner>
          ))}
          <SegmentedControl
            className={classes.viewSwitch}
            value={view}
            onChange={(value) => chooseView(value as ScheduleView)}
            aria-label={t("schedule.view")}
            data-testid="schedule-view"
            data={[
              { value: "calendar", label: t("schedule.viewCalendar") },
              { value: "agenda", label: t("schedule.viewAgenda", { count: AGENDA_DAYS }) },
            ]}
          />
          {view === "agenda" ? (
            <ScheduleAgenda
              today={today}
              timeZone={timeZone}
              posts={shown}
              onAddPost={plans ? openCreate : undefined}
              onOpenPost={(post) => {
                openedFrom.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
                setDetailsId(post.id);
              }}
            />
          ) : (
          <ScheduleCalendar
            month={month}
            today={today}
            timeZone={timeZone}
            posts={shown}
            onMonthChange={(months) => setMonthShift((shift) => shift + months)}
            onToday={() => setMonthShift(0)}
            onAddPost={plans ? openCreate : undefined}
            onOpenPost={(post) => {
              openedFrom.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
              setDetailsId(post.id);
            }}
          />
          )}
          <ScheduleLegend />
          <ContentPlan projectId={projectId!} projectTimeZone={timeZone} />
        </Stack>
      )}

      {projectId !== null && (
        <>
          <PostDetailsDialog
            projectId={projectId}
            post={liveDetails ?? lastDetails.current}
            series={seriesOf(liveDetails ?? lastDetails.current)}
            opened={liveDetails !== null}
            timeZone={timeZone}
            drafts={drafts}
            onClose={() => setDetailsId(null)}
            onEdit={openEdit}
            onDelete={openDelete}
          />
          <ScheduleDialog
            projectId={projectId}
            timeZone={timeZone}
            target={scheduleTarget ?? lastTarget.current}
            opened={scheduleTarget !== null && !draftDialogOpen}
            drafts={drafts}
            createdDraft={createdDraft}
            adRows={posts}
            onCreateDraft={() => setDraftDialogOpen(true)}
            onClose={() => setScheduleTarget(null)}
          />
          <DraftDialog
            projectId={projectId}
            opened={draftDialogOpen}
            onClose={() => setDraftDialogOpen(false)}
            onSaved={setCreatedDraft}
            size={SCHEDULE_DIALOG_WIDTH}
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
      )}
    </>
  );
}
