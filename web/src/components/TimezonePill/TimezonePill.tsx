import { Tooltip } from "@mantine/core";
import "@mantine/core/styles/Tooltip.layer.css";
import type { ZonedDateTime } from "@internationalized/date";
import { useT } from "../../i18n/i18n.tsx";
import { clockText } from "../../lib/projectTime.ts";
import { offsetOf } from "../../lib/timezones.ts";
import { IconGlobe } from "../Icons/Icons.tsx";
import classes from "./TimezonePill.module.css";

/**
 * The project's timezone as the header shows it (spec §2), e.g. "Europe/Moscow GMT+3 |
 * now 14:32". It sits inside the header's description text, so it is made of spans.
 */
export function TimezonePill({ timeZone, now }: { timeZone: string; now?: ZonedDateTime }) {
  const t = useT();
  const offset = offsetOf(timeZone, now?.toDate() ?? new Date());
  return (
    <Tooltip label={t("schedule.timezoneHint")} multiline w={260}>
      <span className={classes.zone} data-testid="project-timezone" tabIndex={0}>
        <IconGlobe size={14} />
        <span>{timeZone}</span>
        {offset && timeZone !== "UTC" && <span className={classes.muted}>{offset}</span>}
        {now && (
          <>
            <span className={classes.divider} aria-hidden="true" />
            <span className={classes.muted}>{t("schedule.nowTime", { time: clockText(now) })}</span>
          </>
        )}
      </span>
    </Tooltip>
  );
}
