import { Badge, Card, Skeleton, Text } from "@mantine/core";
import "@mantine/core/styles/Badge.layer.css";
import "@mantine/core/styles/Card.layer.css";
import "@mantine/core/styles/Skeleton.layer.css";
import { Link } from "react-router-dom";
import type { Project } from "../../../../contract/projects.ts";
import { signedCount } from "../../../../contract/counts.ts";
import type { ProjectOverview } from "../../../../contract/stats.ts";
import { roleCan } from "../../../../contract/team.ts";
import { useLanguage, useT } from "../../i18n/i18n.tsx";
import { formatDate, LOCALES } from "../../lib/formatDate.ts";
import { formatMoney } from "../../lib/adReport.ts";
import { lateDuration, minutesLate } from "../../lib/lateness.ts";
import { formatUpcoming, projectTimeZone } from "../../lib/projectTime.ts";
import { projectPath } from "../../lib/projectSections.ts";
import { ROLE_LABEL_KEYS } from "../../lib/roles.ts";
import {
  IconAlert,
  IconCalendar,
  IconClock,
  IconFolder,
  IconHourglass,
  IconMegaphone,
  IconReceipt,
  IconRepeat,
  IconUsers,
} from "../Icons/Icons.tsx";
import { QueueHealth } from "../QueueHealth/QueueHealth.tsx";
import classes from "./ProjectCard.module.css";

type ProjectCardProps = {
  project: Project;
  /** The card's figures from the one overview read; undefined while it loads or when it failed. */
  figures: ProjectOverview | undefined;
  /** The overview is still being read: the figures show placeholders. */
  figuresLoading: boolean;
  /** Opens the bulk-add dialog for this project, asking the AI for `count` titles. */
  onAddTitles: (count: number) => void;
};

/**
 * A dashboard card: the whole card opens the project (its name is the link, stretched over the
 * card), except the controls of their own above it: the queue warning's button, the failures'
 * link to the schedule, and the link to connect a channel while none is.
 */
export function ProjectCard({ project, figures, figuresLoading, onAddTitles }: ProjectCardProps) {
  const t = useT();
  const { language } = useLanguage();

  return (
    <Card padding="lg" className={classes.card} data-testid="project-card" data-project-id={project.id}>
      <div className={classes.head}>
        <span className={classes.icon}>
          <IconFolder size={18} />
        </span>
        <Text component={Link} to={projectPath(project.id)} fw={600} size="md" truncate="end" className={classes.link}>
          {project.name}
        </Text>
        {/* a shared project says what the account may do in it; the owner's own cards stay quiet */}
        {project.role !== "owner" && (
          <Badge variant="light" color="gray" size="sm" tt="none" className={classes.role} data-testid="card-role">
            {t(ROLE_LABEL_KEYS[project.role])}
          </Badge>
        )}
      </div>
      <Text size="sm" c="dimmed" lineClamp={2} className={classes.description}>
        {project.description || t("dashboard.noDescription")}
      </Text>
      {figuresLoading ? (
        <div className={classes.figures} role="status" aria-label={t("dashboard.figuresLoading")}>
          {[0, 1].map((index) => (
            <div key={index} className={classes.figure}>
              <Skeleton height={10} width="55%" mb={10} />
              <Skeleton height={20} width="70%" />
            </div>
          ))}
        </div>
      ) : (
        figures && <Figures project={project} figures={figures} />
      )}
      <QueueHealth
        projectId={project.id}
        timeZone={project.timezone}
        variant="card"
        onAddTitles={roleCan(project.role, "drafts.write") ? onAddTitles : undefined}
      />
      <Text size="xs" className={classes.footer}>
        <IconCalendar size={14} />
        {t("dashboard.created", { date: formatDate(project.createdAt, language) })}
      </Text>
    </Card>
  );
}

/**
 * Subscribers and their week, the next post, the month's ad income, and what needs the team:
 * failures, posts waiting for review, posts waiting for the approver (docs/statistics.md, home cards).
 */
function Figures({ project, figures }: { project: Project; figures: ProjectOverview }) {
  const t = useT();
  const { language } = useLanguage();
  const locale = LOCALES[language];
  const number = new Intl.NumberFormat(locale);
  const change = figures.subscribersChange7d;
  const trend = change === null ? null : change > 0 ? "up" : change < 0 ? "down" : "flat";
  const changeText = change === null ? "" : signedCount(change, number.format);
  const failures = figures.failed + figures.uncertain;
  // the overview counts every waiting post for those who review, a member's own for the rest
  const reviews = roleCan(project.role, "posts.review");

  return (
    <>
      <div className={classes.figures} data-testid="project-figures">
        <div className={classes.figure}>
          <Text size="xs" className={classes.label}>
            <IconUsers size={14} />
            <span className={classes.labelText}>{t("dashboard.subscribers")}</span>
          </Text>
          {!figures.channelConnected && figures.channelAwaitingHandle ? (
            <Link
              to={projectPath(project.id, "channels")}
              className={classes.connect}
              title={t("dashboard.channelAwaitingHint")}
              data-testid="card-subscribers"
              data-state="awaiting"
            >
              <IconHourglass size={14} />
              <span>{t("dashboard.channelAwaiting", { handle: figures.channelAwaitingHandle })}</span>
            </Link>
          ) : !figures.channelConnected && !roleCan(project.role, "channel.manage") ? (
            <Text size="sm" className={classes.quiet} data-testid="card-subscribers" data-state="no-channel">
              {t("dashboard.noChannel")}
            </Text>
          ) : !figures.channelConnected ? (
            <Link
              to={projectPath(project.id, "channels")}
              className={classes.connect}
              title={t("dashboard.noChannel")}
              data-testid="card-subscribers"
              data-state="no-channel"
            >
              <IconMegaphone size={14} />
              <span>{t("dashboard.connectChannel")}</span>
            </Link>
          ) : figures.subscribers === null ? (
            <Text size="sm" className={classes.quiet} data-testid="card-subscribers" data-state="unknown">
              {t("dashboard.subscribersUnknown")}
            </Text>
          ) : (
            <div className={classes.valueRow}>
              <Text className={classes.value} data-testid="card-subscribers">
                {number.format(figures.subscribers)}
              </Text>
              {trend && (
                <Text span size="xs" className={classes.trend} data-trend={trend} data-testid="card-subscribers-change">
                  {t("dashboard.subscribersWeek", { change: changeText })}
                </Text>
              )}
            </div>
          )}
        </div>
        <div className={classes.figure}>
          <Text size="xs" className={classes.label}>
            {figures.nextPostRecurring ? <IconRepeat size={14} /> : <IconClock size={14} />}
            <span className={classes.labelText}>{t("dashboard.nextPost")}</span>
          </Text>
          {figures.nextPostAt ? (
            <>
              <Text className={classes.when} data-testid="card-next-post">
                {formatUpcoming(figures.nextPostAt, locale, projectTimeZone(project.timezone))}
              </Text>
              <Text size="xs" className={classes.quiet} truncate="end" data-testid="card-next-post-title">
                {figures.nextPostTitle || t("dashboard.recurringPost")}
              </Text>
            </>
          ) : (
            <Text size="sm" className={classes.quiet} data-testid="card-next-post" data-state="none">
              {t("dashboard.noNextPost")}
            </Text>
          )}
        </div>
      </div>
      {/* left out until an ad of this month went out: most channels sell none */}
      {(figures.adIncome ?? []).length > 0 && (
        <div className={classes.income} data-testid="card-ad-income">
          <Text size="xs" className={classes.label}>
            <IconReceipt size={14} />
            <span className={classes.labelText}>{t("dashboard.adIncome")}</span>
          </Text>
          <Text className={classes.incomeValue}>
            {figures.adIncome.map((total, index) => (
              <span key={total.currency} className={classes.incomeAmount} data-currency={total.currency}>
                {index > 0 && " · "}
                {formatMoney(total.amount, total.currency, locale)}
              </span>
            ))}
          </Text>
        </div>
      )}
      {(figures.awaitingApproval > 0 || failures > 0 || figures.inReview > 0) && (
        <div className={classes.attention}>
          {failures > 0 && (
            <Link to={projectPath(project.id, "schedule")} className={classes.failures} data-testid="card-failures">
              <IconAlert size={14} />
              {t("dashboard.failures", { count: failures })}
            </Link>
          )}
          {figures.inReview > 0 && (
            // to the review page, the one list of waiting posts: a reviewer decides there, an
            // author reads the comments on theirs (the overview counts only theirs for them)
            <Link
              to={`${projectPath(project.id)}/review`}
              className={classes.review}
              data-testid="card-in-review"
              data-scope={reviews ? "all" : "own"}
            >
              <IconHourglass size={14} />
              {t(reviews ? "dashboard.inReview" : "dashboard.inReviewOwn", { count: figures.inReview })}
            </Link>
          )}
          {figures.awaitingApproval > 0 && (
            // to the schedule, where each waiting post reads its state and the late ones say by how much
            <Link
              to={projectPath(project.id, "schedule")}
              className={classes.awaiting}
              data-testid="card-awaiting"
              data-late={figures.lateApproval > 0 || undefined}
            >
              {figures.lateApproval > 0 ? <IconAlert size={14} /> : <IconClock size={14} />}
              {/* one run of text, so a long line wraps as a sentence, not as two columns */}
              <span>
                {t("dashboard.awaitingApproval", { count: figures.awaitingApproval })}
                {figures.lateApproval > 0 && figures.lateSince && (
                  <span data-testid="card-late">
                    {" · "}
                    {t("dashboard.lateApproval", {
                      count: figures.lateApproval,
                      duration: lateDuration(t, minutesLate({ status: "scheduled", scheduledFor: figures.lateSince }) ?? 0),
                    })}
                  </span>
                )}
              </span>
            </Link>
          )}
        </div>
      )}
    </>
  );
}
