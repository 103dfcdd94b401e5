import { Card, Text, Title } from "@mantine/core";
import type { CSSProperties } from "react";
import type { ChannelStats } from "../../../../contract/stats.ts";
import { useLanguage, useT } from "../../i18n/i18n.tsx";
import { LOCALES } from "../../lib/formatDate.ts";
import { weekdayNames } from "../../lib/projectTime.ts";
import classes from "./Stats.module.css";

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);
const hourText = (hour: number) => `${String(hour).padStart(2, "0")}:00`;

/**
 * Average reactions per post by the weekday and hour it went out (the project's timezone):
 * a table, so a screen reader reads each cell with its day and hour; the shade repeats the
 * number for the eye, and the best cell is also named in words above the grid.
 */
export function BestTimes({ bestTimes, timeZone }: { bestTimes: ChannelStats["bestTimes"]; timeZone: string }) {
  const t = useT();
  const { language } = useLanguage();
  const locale = LOCALES[language];
  const average = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
  const days = weekdayNames(locale, "short");
  const longDays = weekdayNames(locale, "long");
  const cells = new Map(bestTimes.map((cell) => [`${cell.weekday}-${cell.hour}`, cell]));
  const max = Math.max(0, ...bestTimes.map((cell) => cell.avgReactions));
  const best = bestTimes.reduce<ChannelStats["bestTimes"][number] | null>(
    (top, cell) => (!top || cell.avgReactions > top.avgReactions || (cell.avgReactions === top.avgReactions && cell.posts > top.posts) ? cell : top),
    null,
  );

  return (
    <Card withBorder padding="lg" className={classes.panel} component="section" aria-labelledby="stats-best-times">
      <Title order={2} size="h3" id="stats-best-times">{t("statistics.bestTimes")}</Title>
      <Text size="sm" c="dimmed">{t("statistics.bestTimesHint", { timeZone })}</Text>
      {bestTimes.length === 0 ? (
        <Text size="sm" c="dimmed" mt="md" data-testid="stats-best-times-empty">{t("statistics.noBestTimes")}</Text>
      ) : (
        <>
          {best && best.avgReactions > 0 && (
            <Text size="sm" mt="sm" data-testid="stats-best-time">
              {t("statistics.bestTimesTop", { weekday: longDays[best.weekday - 1], hour: hourText(best.hour), avg: average.format(best.avgReactions) })}
            </Text>
          )}
          {/* Scrolls sideways on a phone; a tab stop, so the keyboard can scroll it too. */}
          <div className={classes.gridScroll} tabIndex={0} role="region" aria-label={t("statistics.bestTimes")}>
            <table className={classes.heatmap} data-testid="stats-best-times">
              <caption className={classes.visuallyHidden}>{t("statistics.bestTimesCaption")}</caption>
              <thead>
                <tr>
                  <td className={classes.corner} />
                  {HOURS.map((hour) => (
                    <th key={hour} scope="col" className={classes.hourHead}>
                      <span aria-hidden="true">{String(hour).padStart(2, "0")}</span>
                      <span className={classes.visuallyHidden}>{hourText(hour)}</span>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {days.map((day, index) => (
                  <tr key={day}>
                    <th scope="row" className={classes.dayHead}>
                      <abbr title={longDays[index]} className={classes.dayName}>{day}</abbr>
                    </th>
                    {HOURS.map((hour) => {
                      const cell = cells.get(`${index + 1}-${hour}`);
                      if (!cell) return <td key={hour} className={classes.heatCell} />;
                      return (
                        <td
                          key={hour}
                          className={classes.heatCell}
                          style={{ "--heat": max > 0 ? cell.avgReactions / max : 0 } as CSSProperties}
                          data-testid="stats-best-time-cell"
                          data-weekday={cell.weekday}
                          data-hour={cell.hour}
                          title={`${average.format(cell.avgReactions)} ${t("statistics.bestTimeCellHint", { posts: cell.posts })}`}
                        >
                          <span className={classes.heatValue}>{average.format(cell.avgReactions)}</span>
                          <span className={classes.visuallyHidden}> {t("statistics.bestTimeCellHint", { posts: cell.posts })}</span>
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Text className={classes.scrollHint} aria-hidden="true">{t("statistics.scrollHint")}</Text>
        </>
      )}
    </Card>
  );
}
