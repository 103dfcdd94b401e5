import { Alert, Anchor, Button, Text } from "@mantine/core";
import "@mantine/core/styles/Alert.layer.css";
import { Link } from "react-router-dom";
import { QUEUE_FORECAST_DAYS } from "../../../../contract/limits.ts";
import { titlesForTwoWeeks, useQueueHealth } from "../../api/queueHealth.ts";
import { useLanguage, useT } from "../../i18n/i18n.tsx";
import { LOCALES } from "../../lib/formatDate.ts";
import { formatDayMonth, projectTimeZone } from "../../lib/projectTime.ts";
import { projectPath } from "../../lib/projectSections.ts";
import { IconAlert, IconHourglass, IconInfo, IconSparkles } from "../Icons/Icons.tsx";
import classes from "./QueueHealth.module.css";

type QueueHealthProps = {
  projectId: number;
  /** The project's timezone: the date is the project's, as on the calendar. */
  timeZone: string;
  /** "card": a line (or a compact warning) on the dashboard card; "page": the Drafts page's bar. */
  variant: "card" | "page";
  /** Opens the bulk-add dialog asking the AI for `count` titles at once; none for a role that cannot write drafts. */
  onAddTitles?: (count: number) => void;
};

/**
 * How long the drafts queue lasts at the current plan plus series (docs/autopilot-and-ai.md "Autopilot"):
 * until which day, or over QUEUE_FORECAST_DAYS; a warning with the date when it runs dry
 * within QUEUE_LOW_DAYS, whose button asks the AI for about two weeks of titles. Nothing on
 * the card (a quiet hint on the page) while nothing takes drafts.
 */
export function QueueHealth({ projectId, timeZone, variant, onAddTitles }: QueueHealthProps) {
  const t = useT();
  const { language } = useLanguage();
  const { health } = useQueueHealth(projectId);
  // A forecast that could not be read says nothing rather than something wrong.
  if (!health) return null;

  const zone = projectTimeZone(timeZone);
  const locale = LOCALES[language];
  const count = titlesForTwoWeeks(health.postsPerWeek);
  const onCard = variant === "card";
  const addButton = (low: boolean) => onAddTitles && (
    <Button
      size={onCard ? "xs" : "sm"}
      variant={low ? "filled" : "light"}
      leftSection={<IconSparkles size={onCard ? 14 : 16} />}
      onClick={() => onAddTitles(count)}
      classNames={{ root: classes.action, label: onCard ? classes.wrappingLabel : undefined }}
      data-testid="queue-health-add"
    >
      {t("queueHealth.addTitles")}
    </Button>
  );

  if (health.postsPerWeek === 0) {
    if (onCard) return null;
    return (
      <Text size="sm" className={classes.idle} data-testid="queue-health" data-state="idle">
        <IconInfo size={16} />
        <span>
          {t("queueHealth.idle")}{" "}
          <Anchor component={Link} to={projectPath(projectId, "schedule")} inherit underline="always" className={classes.idleLink}>
            {t("queueHealth.idleLink")}
          </Anchor>
        </span>
      </Text>
    );
  }

  if (health.low && health.runsDryAt) {
    const date = formatDayMonth(health.runsDryAt, locale, zone, { withTime: true });
    return (
      <Alert
        variant="light"
        color="orange"
        radius="md"
        role="status"
        icon={<IconAlert size={onCard ? 16 : 18} />}
        title={t("queueHealth.lowTitle", { date })}
        className={onCard ? classes.cardAlert : classes.pageAlert}
        data-testid="queue-health"
        data-state="low"
      >
        {!onCard && t("queueHealth.lowText", { count: health.draftsLeft, perWeek: health.postsPerWeek })}
        {onAddTitles && <div className={classes.alertActions}>{addButton(true)}</div>}
      </Alert>
    );
  }

  const lasts = health.runsDryAt
    ? t("queueHealth.lastsUntil", { date: formatDayMonth(health.runsDryAt, locale, zone) })
    : t("queueHealth.lastsLong", { days: QUEUE_FORECAST_DAYS });
  if (onCard) {
    return (
      <Text size="xs" className={classes.cardLine} data-testid="queue-health" data-state="ok">
        <IconHourglass size={14} />
        {lasts}
      </Text>
    );
  }
  return (
    <div className={classes.bar} data-testid="queue-health" data-state="ok">
      <span className={classes.barIcon}>
        <IconHourglass size={18} />
      </span>
      <div className={classes.barText}>
        <Text size="sm" fw={600}>
          {lasts}
        </Text>
        <Text size="xs" className={classes.details}>
          {t("queueHealth.details", { count: health.draftsLeft, perWeek: health.postsPerWeek })}
        </Text>
      </div>
      {addButton(false)}
    </div>
  );
}
