import { ActionIcon, Badge, Button, Card, Text, Tooltip, UnstyledButton, VisuallyHidden } from "@mantine/core";
import "@mantine/core/styles/Badge.layer.css";
import "@mantine/core/styles/Card.layer.css";
import "@mantine/core/styles/Tooltip.layer.css";
import "@mantine/core/styles/VisuallyHidden.layer.css";
import { useMediaQuery } from "@mantine/hooks";
import { type CalendarDate, isSameMonth } from "@internationalized/date";
import { useMemo, useState } from "react";
import { type TFunction, useLanguage, useT } from "../../i18n/i18n.tsx";
import { type TopWindow, topWindowsByDay } from "../../lib/adDisplay.ts";
import { LOCALES } from "../../lib/formatDate.ts";
import { clockText, formatDayLong, formatMonthYear, monthGrid, weekdayNames, zonedAt } from "../../lib/projectTime.ts";
import { type CalendarPost, isVirtualPost } from "../../lib/recurrence.ts";
import { IconArrowUp, IconChevronLeft, IconChevronRight, IconMegaphone, IconPlus, IconRepeat, IconSparkles } from "../Icons/Icons.tsx";
import { postTone, PostStatusBadge, statusKind, statusLook, statusText } from "../PostStatus/PostStatus.tsx";
import classes from "./ScheduleCalendar.module.css";

type ScheduleCalendarProps = {
  /** Any day of the shown month. */
  month: CalendarDate;
  /** Today in the project's timezone. */
  today: CalendarDate;
  timeZone: string;
  posts: CalendarPost[];
  onMonthChange: (months: number) => void;
  onToday: () => void;
  /** Plans a post on that day; none for a role that cannot plan (docs/teams.md). */
  onAddPost?: (day: CalendarDate) => void;
  onOpenPost: (post: CalendarPost) => void;
};

type DayPosts = Map<string, { post: CalendarPost; time: string }[]>;
type DayWindows = Map<string, TopWindow[]>;

/** Posts by the day they fall on in the project's timezone, in time order. */
function groupByDay(posts: CalendarPost[], timeZone: string): DayPosts {
  const byDay: DayPosts = new Map();
  const sorted = posts
    .map((post) => ({ post, at: zonedAt(post.scheduledFor, timeZone) }))
    .sort((a, b) => a.at.compare(b.at) || a.post.id - b.post.id);
  for (const { post, at } of sorted) {
    const key = `${at.year}-${String(at.month).padStart(2, "0")}-${String(at.day).padStart(2, "0")}`;
    const list = byDay.get(key) ?? [];
    list.push({ post, time: clockText(at) });
    byDay.set(key, list);
  }
  return byDay;
}

/**
 * Spec §2 Schedule: a month calendar, weeks from Monday. Days outside the month are dimmed,
 * today is highlighted, past days are faded; today and later days have an add button.
 * A wide grid shows the posts in the days; on small screens a compact grid marks days with
 * dots and lists the chosen day's posts below it.
 */
export function ScheduleCalendar(props: ScheduleCalendarProps) {
  const t = useT();
  const { language } = useLanguage();
  const locale = LOCALES[language];
  const wide = useMediaQuery("(min-width: 48em)", true, { getInitialValueInEffect: false });
  const { month, timeZone, posts, onMonthChange, onToday } = props;
  const byDay = useMemo(() => groupByDay(posts, timeZone), [posts, timeZone]);
  const windows = useMemo(() => topWindowsByDay(posts, timeZone), [posts, timeZone]);
  const weeks = useMemo(() => monthGrid(month), [month]);
  const heading = formatMonthYear(month, locale);
  const showsToday = isSameMonth(month, props.today);

  return (
    <Card padding={0} className={classes.calendar} data-testid="schedule-calendar" data-layout={wide ? "wide" : "compact"}>
      <div className={classes.toolbar}>
        <Text component="h2" className={classes.month} aria-live="polite" data-testid="calendar-month">
          {heading}
        </Text>
        <div className={classes.nav}>
          <Button variant="default" size="xs" onClick={onToday} disabled={showsToday} data-testid="calendar-today">
            {t("schedule.today")}
          </Button>
          <ActionIcon.Group>
            <ActionIcon
              variant="default"
              size={30}
              onClick={() => onMonthChange(-1)}
              aria-label={t("schedule.prevMonth")}
              data-testid="calendar-prev"
            >
              <IconChevronLeft size={16} />
            </ActionIcon>
            <ActionIcon
              variant="default"
              size={30}
              onClick={() => onMonthChange(1)}
              aria-label={t("schedule.nextMonth")}
              data-testid="calendar-next"
            >
              <IconChevronRight size={16} />
            </ActionIcon>
          </ActionIcon.Group>
        </div>
      </div>
      {wide ? (
        <WideGrid {...props} weeks={weeks} byDay={byDay} windows={windows} locale={locale} />
      ) : (
        <CompactGrid {...props} weeks={weeks} byDay={byDay} windows={windows} locale={locale} />
      )}
    </Card>
  );
}

type GridProps = ScheduleCalendarProps & { weeks: CalendarDate[][]; byDay: DayPosts; windows: DayWindows; locale: string };

function dayState(day: CalendarDate, month: CalendarDate, today: CalendarDate) {
  const order = day.compare(today);
  return { outside: !isSameMonth(day, month), isToday: order === 0, past: order < 0 };
}

const adCount = (dayPosts: { post: CalendarPost }[]) => dayPosts.filter(({ post }) => post.adState).length;

/** What a screen reader says for a day: its date, how many posts it holds and how many are ads ("…, posts: 2, ads: 1"). */
function dayName(t: TFunction, day: CalendarDate, locale: string, today: CalendarDate, dayPosts: { post: CalendarPost }[]) {
  const ads = adCount(dayPosts);
  return `${formatDayLong(day, locale, today.year)}, ${t("schedule.postCount", { count: dayPosts.length })}${ads > 0 ? `, ${t("schedule.adCount", { count: ads })}` : ""}`;
}

/** An ad's top window on one day: "On top 12:00–13:00", with the ad's title where its chip is on another day. */
function TopWindowBand({ window, title, large = false }: { window: TopWindow; title?: string; large?: boolean }) {
  const t = useT();
  const words = t("schedule.adTopWindow", { from: window.from, until: window.until });
  return (
    <div className={classes.topWindow} data-large={large || undefined} data-testid="calendar-top-window" data-post-id={window.postId}>
      <IconArrowUp size={12} className={classes.chipIcon} />
      <span>
        {words}
        {title && <span className={classes.topWindowTitle}> · {title}</span>}
      </span>
    </div>
  );
}

/**
 * A day's posts in time order, each ad followed by its top window; a window that runs on from
 * the day before (an ad late in the evening) comes first.
 */
function DayItems({ dayPosts, windows, onOpen, large = false }: {
  dayPosts: { post: CalendarPost; time: string }[];
  windows: TopWindow[];
  onOpen: (post: CalendarPost) => void;
  large?: boolean;
}) {
  const t = useT();
  const carried = windows.filter((window) => !dayPosts.some(({ post }) => post.id === window.postId));
  return (
    <>
      {carried.map((window) => <TopWindowBand key={`w${window.postId}`} window={window} large={large} title={t("schedule.adTopWindowCarried")} />)}
      {dayPosts.map(({ post, time }) => (
        <div key={post.id} className={classes.dayItem}>
          <PostChip post={post} time={time} onOpen={onOpen} large={large} />
          {windows.filter((window) => window.postId === post.id).map((window) => (
            <TopWindowBand key={`w${window.postId}`} window={window} large={large} />
          ))}
        </div>
      ))}
    </>
  );
}

/** Monday to Sunday (spec §9: weeks start on Monday). */
function WeekdayHeader({ locale }: { locale: string }) {
  return (
    <div className={classes.weekdays} role="row">
      {weekdayNames(locale).map((name) => (
        <div key={name} role="columnheader" className={classes.weekday}>
          {name}
        </div>
      ))}
    </div>
  );
}

function WideGrid({ month, today, weeks, byDay, windows, locale, onAddPost, onOpenPost }: GridProps) {
  const t = useT();
  return (
    <div className={classes.grid} role="table" aria-label={formatMonthYear(month, locale)}>
      <WeekdayHeader locale={locale} />
      {weeks.map((week) => (
        // A week wholly past with nothing in it keeps only its day numbers: the room goes to what is coming.
        <div
          key={week[0].toString()}
          className={classes.week}
          role="row"
          data-past-empty={(week[6].compare(today) < 0 && week.every((day) => !byDay.has(day.toString()))) || undefined}
        >
          {week.map((day) => {
            const { outside, isToday, past } = dayState(day, month, today);
            const key = day.toString();
            const dayLabel = formatDayLong(day, locale, today.year);
            const dayPosts = byDay.get(key) ?? [];
            return (
              <div
                key={key}
                role="cell"
                className={classes.day}
                data-outside={outside || undefined}
                data-today={isToday || undefined}
                data-past={past || undefined}
                data-testid="calendar-day"
                data-date={key}
              >
                <div className={classes.dayHead}>
                  <span className={classes.dayNumber} aria-hidden="true">
                    {day.day}
                  </span>
                  <VisuallyHidden>{dayName(t, day, locale, today, dayPosts)}</VisuallyHidden>
                  {!past && onAddPost && (
                    <Tooltip label={t("schedule.addPostOn", { date: dayLabel })} openDelay={400}>
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        size="sm"
                        className={classes.addButton}
                        aria-label={t("schedule.addPostOn", { date: dayLabel })}
                        onClick={() => onAddPost(day)}
                        data-testid="add-post"
                      >
                        <IconPlus size={14} />
                      </ActionIcon>
                    </Tooltip>
                  )}
                </div>
                <div className={classes.dayPosts}>
                  <DayItems dayPosts={dayPosts} windows={windows.get(key) ?? []} onOpen={onOpenPost} />
                </div>
              </div>
            );
          })}
        </div>
      ))}
    </div>
  );
}

/** A post in a day: its time and title, coloured by status, with the status on hover. */
function PostChip({ post, time, onOpen, large = false }: { post: CalendarPost; time: string; onOpen: (post: CalendarPost) => void; large?: boolean }) {
  const t = useT();
  const { Icon } = statusLook(post);
  const label = statusText(t, post);
  const skipped = isVirtualPost(post) && post.skipped;
  const title = skipped ? t("schedule.occurrenceSkipped") : post.title || t("schedule.noDraftsAvailable");
  // A day cell is narrow: a repeat without a draft says so in two words (the tooltip has the rest).
  const shownTitle = skipped ? title : post.title || (large ? title : t("schedule.noDraftShort"));
  const repeats = isVirtualPost(post) || post.seriesId !== null;
  const showIcon = statusKind(post) !== "draft";
  // an autopilot post (a content plan slot's) is marked, and says when the AI is still writing it
  const autopilot = !isVirtualPost(post) && post.planId !== null
    ? t(post.awaitingText ? "schedule.autopilotWriting" : "schedule.autopilot")
    : null;
  // an ad is marked by a badge and its name, never by colour alone
  const ad = post.adState ? t("schedule.adBadge") : null;
  const common = {
    "data-tone": postTone(post.status),
    "data-virtual": isVirtualPost(post) || undefined,
    "data-no-draft": (isVirtualPost(post) && post.draftId === null && !skipped) || undefined,
    "data-skipped": skipped || undefined,
    "data-autopilot": autopilot !== null || undefined,
    "data-ad": ad !== null || undefined,
    onClick: () => onOpen(post),
    "data-testid": "calendar-post",
    "data-post-id": post.id,
    "data-status": statusKind(post),
  };
  // In the agenda under the compact grid there is room for the whole title and the status.
  if (large) {
    return (
      <UnstyledButton className={classes.chip} data-large {...common}>
        <span className={classes.chipTime}>{time}</span>{" "}
        <span className={classes.chipBody}>
          <span className={classes.chipTitle}>{title}</span>{" "}
          <span className={classes.chipBadges}>
            <PostStatusBadge post={post} size="sm" />
            {ad && (
              <Badge size="sm" variant="outline" color="gray" radius="sm" tt="none" leftSection={<IconMegaphone size={11} />} data-testid="calendar-ad-badge">
                {ad}
              </Badge>
            )}
          </span>
          {autopilot && (
            <span className={classes.chipNote}>
              <IconSparkles size={12} /> {autopilot}
            </span>
          )}
        </span>
      </UnstyledButton>
    );
  }
  return (
    <Tooltip label={[time, title, post.title && !skipped ? label : null, autopilot, ad].filter(Boolean).join(" · ")} openDelay={300} multiline maw={320}>
      <UnstyledButton className={classes.chip} {...common}>
        {/* Named by what it shows (time, title), then its status, which the colour and icon also tell. */}
        <span className={classes.chipTime}>{time}</span>{" "}
        <span className={classes.chipTitle}>{shownTitle}</span>
        {repeats && <IconRepeat size={12} className={classes.chipIcon} />}
        {showIcon && !isVirtualPost(post) && <Icon size={12} className={classes.chipIcon} />}
        {autopilot && <IconSparkles size={12} className={classes.chipIcon} />}
        {ad && <IconMegaphone size={12} className={classes.chipIcon} data-testid="calendar-ad-mark" />}
        <VisuallyHidden>, {skipped ? title : label}{autopilot && `, ${autopilot}`}{ad && `, ${ad}`}</VisuallyHidden>
      </UnstyledButton>
    </Tooltip>
  );
}

function CompactGrid({ month, today, weeks, byDay, windows, locale, onAddPost, onOpenPost }: GridProps) {
  const t = useT();
  const [picked, setSelected] = useState<CalendarDate | null>(null);
  // Any day the grid shows can be picked, the next month's first days included (near a month's
  // end they are this week). Another month starts on today (when it is shown) or on its first day.
  const gridFirst = weeks[0][0];
  const gridLast = weeks.at(-1)!.at(-1)!;
  const inGrid = (day: CalendarDate) => day.compare(gridFirst) >= 0 && day.compare(gridLast) <= 0;
  const selected = picked && inGrid(picked) ? picked : isSameMonth(month, today) ? today : month.set({ day: 1 });

  const selectedKey = selected.toString();
  const selectedPosts = byDay.get(selectedKey) ?? [];
  const selectedPast = selected.compare(today) < 0;
  const selectedLabel = formatDayLong(selected, locale, today.year);

  return (
    <>
      <div className={classes.compactGrid} role="table" aria-label={formatMonthYear(month, locale)}>
        <WeekdayHeader locale={locale} />
        {weeks.map((week) => (
          <div key={week[0].toString()} className={classes.compactWeek} role="row">
            {week.map((day) => {
              const { outside, isToday, past } = dayState(day, month, today);
              const key = day.toString();
              const dayPosts = byDay.get(key) ?? [];
              return (
                <div key={key} role="cell" className={classes.compactCell}>
                  <UnstyledButton
                    className={classes.compactDay}
                    data-outside={outside || undefined}
                    data-today={isToday || undefined}
                    data-past={past || undefined}
                    data-selected={key === selectedKey || undefined}
                    aria-pressed={key === selectedKey}
                    aria-label={dayName(t, day, locale, today, dayPosts)}
                    onClick={() => setSelected(day)}
                    data-testid="calendar-day"
                    data-date={key}
                  >
                    <span className={classes.dayNumber}>{day.day}</span>
                    <span className={classes.dots} aria-hidden="true">
                      {dayPosts.slice(0, 3).map(({ post }) => (
                        <span
                          key={post.id}
                          className={classes.dot}
                          data-tone={postTone(post.status)}
                          data-virtual={isVirtualPost(post) || undefined}
                          data-ad={post.adState ? true : undefined}
                        />
                      ))}
                    </span>
                  </UnstyledButton>
                </div>
              );
            })}
          </div>
        ))}
      </div>
      <section className={classes.agenda} aria-label={selectedLabel} data-testid="calendar-agenda" data-date={selectedKey}>
        <Text fw={600} className={classes.agendaTitle}>
          {selectedLabel}
        </Text>
        {selectedPosts.length === 0 && !windows.has(selectedKey) ? (
          <Text size="sm" c="dimmed" className={classes.agendaEmpty}>
            {selectedPast ? t("schedule.noPostsPast") : t("schedule.noPosts")}
          </Text>
        ) : (
          <div className={classes.agendaList}>
            <DayItems dayPosts={selectedPosts} windows={windows.get(selectedKey) ?? []} onOpen={onOpenPost} large />
          </div>
        )}
        {!selectedPast && onAddPost && (
          <Button
            fullWidth
            variant="default"
            mt="sm"
            leftSection={<IconPlus size={16} />}
            onClick={() => onAddPost(selected)}
            className={classes.agendaAdd}
            data-testid="add-post"
          >
            {t("schedule.addPost")}
          </Button>
        )}
      </section>
    </>
  );
}

/** What the colours mean (spec §2: published green, rejected red, anything else grey). */
export function ScheduleLegend() {
  const t = useT();
  const items = [
    { key: "published", tone: "green", label: t("schedule.legend.published") },
    { key: "rejected", tone: "red", label: t("schedule.legend.rejected") },
    { key: "other", tone: "gray", label: t("schedule.legend.other") },
    { key: "virtual", tone: "gray", virtual: true, label: t("schedule.legend.virtual") },
  ];
  return (
    <div className={classes.legend} role="list" aria-label={t("schedule.legend.title")}>
      {items.map(({ key, tone, virtual, label }) => (
        <span key={key} className={classes.legendItem} role="listitem">
          <span className={classes.dot} data-tone={tone} data-virtual={virtual || undefined} aria-hidden="true" />
          {label}
        </span>
      ))}
      <span className={classes.legendItem} role="listitem">
        <IconMegaphone size={12} />
        {t("schedule.legend.ad")}
      </span>
    </div>
  );
}

/** How many days the agenda lists, today included. */
export const AGENDA_DAYS = 14;

type ScheduleAgendaProps = {
  today: CalendarDate;
  timeZone: string;
  posts: CalendarPost[];
  /** Plans a post on that day; none for a role that cannot plan (docs/teams.md). */
  onAddPost?: (day: CalendarDate) => void;
  onOpenPost: (post: CalendarPost) => void;
};

/**
 * The next two weeks as a list, day by day: what a phone reads best and what a desktop scans
 * fastest. Days without posts fold into one line so the list stays short.
 */
export function ScheduleAgenda({ today, timeZone, posts, onAddPost, onOpenPost }: ScheduleAgendaProps) {
  const t = useT();
  const { language } = useLanguage();
  const locale = LOCALES[language];
  const byDay = useMemo(() => groupByDay(posts, timeZone), [posts, timeZone]);
  const windows = useMemo(() => topWindowsByDay(posts, timeZone), [posts, timeZone]);
  const days = Array.from({ length: AGENDA_DAYS }, (_, index) => today.add({ days: index }));
  return (
    <Card padding={0} className={classes.calendar} data-testid="schedule-agenda">
      <div className={classes.toolbar}>
        <Text component="h2" className={classes.month}>
          {t("schedule.agendaTitle", { count: AGENDA_DAYS })}
        </Text>
      </div>
      <ol className={classes.agendaDays}>
        {days.map((day) => {
          const key = day.toString();
          const dayPosts = byDay.get(key) ?? [];
          const label = formatDayLong(day, locale, today.year);
          return (
            <li key={key} className={classes.agendaDay} data-testid="agenda-day" data-date={key} data-empty={dayPosts.length === 0 || undefined}>
              <div className={classes.agendaDayHead}>
                <Text component="h3" fw={600} size="sm" className={classes.agendaTitle} data-today={day.compare(today) === 0 || undefined}>
                  {day.compare(today) === 0 ? `${t("schedule.today")}, ${label}` : label}
                </Text>
                {onAddPost && (
                  <Tooltip label={t("schedule.addPostOn", { date: label })} openDelay={400}>
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      size="sm"
                      aria-label={t("schedule.addPostOn", { date: label })}
                      onClick={() => onAddPost(day)}
                      data-testid="add-post"
                    >
                      <IconPlus size={14} />
                    </ActionIcon>
                  </Tooltip>
                )}
              </div>
              {dayPosts.length === 0 && !windows.has(key) ? (
                <Text size="sm" c="dimmed">{t("schedule.noPosts")}</Text>
              ) : (
                <div className={classes.agendaList}>
                  <DayItems dayPosts={dayPosts} windows={windows.get(key) ?? []} onOpen={onOpenPost} large />
                </div>
              )}
            </li>
          );
        })}
      </ol>
    </Card>
  );
}
