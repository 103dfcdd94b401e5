import { Anchor, Button, Group, Text } from "@mantine/core";
import { getLocalTimeZone, toCalendarDate } from "@internationalized/date";
import { Link } from "react-router-dom";
import type { DraftSummary } from "../../../../contract/drafts.ts";
import type { Post } from "../../../../contract/posts.ts";
import { useLanguage, useT } from "../../i18n/i18n.tsx";
import { LOCALES } from "../../lib/formatDate.ts";
import { localClock, optionLines, type PostDetailsState, seriesEndText } from "../../lib/postDetails.ts";
import { projectPath } from "../../lib/projectSections.ts";
import { clockText, formatDayLong, formatInstant, zonedAt } from "../../lib/projectTime.ts";
import { type CalendarPost } from "../../lib/recurrence.ts";
import { IconCalendar, IconClock, IconExternalLink, IconFileText, IconSend, IconSettings } from "../Icons/Icons.tsx";
import { AdFacts } from "./AdFacts.tsx";
import classes from "./PostDetailsDialog.module.css";

type PostFactsProps = {
  projectId: number;
  post: CalendarPost<Post>;
  series: Post | null;
  state: PostDetailsState;
  timeZone: string;
  drafts: DraftSummary[];
};

/**
 * What a post is, as a list of facts: when (in the project's timezone, and on the reader's
 * clock when it differs), when its series ends, the draft it takes, when it was published and
 * edited, and the options it went out with.
 */
export function PostFacts({ projectId, post, series, state, timeZone, drafts }: PostFactsProps) {
  const t = useT();
  const { language } = useLanguage();
  const locale = LOCALES[language];
  const at = zonedAt(post.scheduledFor, timeZone);
  const yourTime = localClock(post.scheduledFor, timeZone, getLocalTimeZone());
  const linkedDraft = post.draftId === null ? undefined : drafts.find((draft) => draft.id === post.draftId);
  const seriesEnd = series ? seriesEndText(t, series, locale, timeZone) : null;
  // the series' own details name the draft its next occurrence takes (the rotation, in SQL)
  const nextDraft = post.isRecurring && !state.virtual ? drafts.find((draft) => draft.nextForSeriesId === post.id) : undefined;
  const options = state.isPublished ? optionLines(t, post) : [];

  return (
    <dl className={classes.facts}>
      <dt>
        <IconClock size={16} />
        <span className={classes.factLabel}>{t("schedule.details.when")}</span>
      </dt>
      <dd data-testid="post-details-time">
        <span className={classes.capitalized}>{formatDayLong(toCalendarDate(at), locale)}</span>, {clockText(at)}
        <Text span size="xs" c="dimmed" display="block">
          {timeZone}
          {yourTime && ` · ${t("schedule.details.yourTime", { time: yourTime })}`}
        </Text>
      </dd>

      {seriesEnd && (
        <>
          <dt>
            <IconCalendar size={16} />
            <span className={classes.factLabel}>{t("schedule.details.ends")}</span>
          </dt>
          <dd data-testid="post-details-ends">{seriesEnd}</dd>
        </>
      )}

      {nextDraft && (
        <>
          <dt>
            <IconFileText size={16} />
            <span className={classes.factLabel}>{t("schedule.details.nextDraft")}</span>
          </dt>
          <dd>
            <Anchor component={Link} size="sm" to={`${projectPath(projectId, "drafts")}/${nextDraft.id}`} data-testid="post-details-next-draft">
              {nextDraft.title}
            </Anchor>
          </dd>
        </>
      )}

      {(linkedDraft || (state.virtual && !state.skipped)) && (
        <>
          <dt>
            <IconFileText size={16} />
            <span className={classes.factLabel}>{t("schedule.details.draft")}</span>
          </dt>
          <dd>
            {linkedDraft ? (
              <Anchor component={Link} size="sm" to={`${projectPath(projectId, "drafts")}/${linkedDraft.id}`} data-testid="post-details-draft">
                {linkedDraft.title}
              </Anchor>
            ) : (
              <>
                <Text span size="sm" c="dimmed">
                  {t("schedule.noDraftsAvailable")}
                </Text>
                {" · "}
                {/* Underlined: beside text, colour alone does not tell a link in the dark scheme. */}
                <Anchor component={Link} size="sm" underline="always" to={projectPath(projectId, "drafts")}>
                  {t("schedule.details.addDrafts")}
                </Anchor>
              </>
            )}
          </dd>
        </>
      )}

      {post.status === "published" && post.publishedAt && (
        <>
          <dt>
            <IconSend size={16} />
            <span className={classes.factLabel}>{t("schedule.details.publishedAt")}</span>
          </dt>
          <dd>
            {formatInstant(post.publishedAt, locale, timeZone)}
            {post.editedAt && (
              <Text span size="xs" c="dimmed" display="block" data-testid="post-details-edited">
                {t("schedule.details.edited", { time: formatInstant(post.editedAt, locale, timeZone) })}
              </Text>
            )}
          </dd>
        </>
      )}

      {post.ad && <AdFacts ad={post.ad} adState={post.adState} timeZone={timeZone} />}

      {options.length > 0 && (
        <>
          <dt>
            <IconSettings size={16} />
            <span className={classes.factLabel}>{t("schedule.details.options")}</span>
          </dt>
          <dd data-testid="post-details-options">
            {options.map((line) => (
              <span key={line} className={classes.optionLine}>
                {line}
              </span>
            ))}
          </dd>
        </>
      )}
    </dl>
  );
}

/** A published post's messages, one button per channel it went to. */
export function PostLinks({ links }: { links: [string, string][] }) {
  const t = useT();
  if (links.length === 0) return null;
  return (
    <div>
      <Text size="sm" fw={500} mb={6}>
        {t("schedule.details.links")}
      </Text>
      <Group gap={8}>
        {links.map(([channel, url]) => (
          <Button
            key={channel}
            component="a"
            href={url}
            target="_blank"
            rel="noreferrer"
            variant="light"
            color="green"
            size="xs"
            rightSection={<IconExternalLink size={14} />}
            data-testid="post-details-link"
          >
            @{channel}
          </Button>
        ))}
      </Group>
    </div>
  );
}
