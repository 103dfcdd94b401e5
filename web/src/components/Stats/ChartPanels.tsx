import { Card, Group, Text, Title } from "@mantine/core";
import "@mantine/core/styles/Card.layer.css";
import { DateFormatter, parseDate } from "@internationalized/date";
import { signedCount } from "../../../../contract/counts.ts";
import type { ChannelStats } from "../../../../contract/stats.ts";
import type { StatsRange } from "../../api/stats.ts";
import { useLanguage, useT } from "../../i18n/i18n.tsx";
import { LOCALES } from "../../lib/formatDate.ts";
import { formatInstant } from "../../lib/projectTime.ts";
import { FiguresTable } from "./FiguresTable.tsx";
import { JoinsChart, SubscribersChart } from "./lazyCharts.tsx";
import { dayOf, daysOf } from "./statsRange.ts";
import classes from "./Stats.module.css";

/** A day ("YYYY-MM-DD", already the project's) as "3 Dec". */
function dayLabel(day: string, locale: string): string {
  return new DateFormatter(locale, { day: "numeric", month: "short", timeZone: "UTC" }).format(parseDate(day).toDate("UTC"));
}

type PanelProps = { stats: ChannelStats; range: StatsRange; timeZone: string };

/**
 * Subscribers now and over the range. Samples are hourly; a range longer than a month shows
 * each day's last sample, which is what the eye reads at that scale.
 */
export function SubscribersPanel({ stats, range, timeZone }: PanelProps) {
  const t = useT();
  const { language } = useLanguage();
  const locale = LOCALES[language];
  const numbers = new Intl.NumberFormat(locale);
  const { current, points } = stats.subscribers;
  const long = Date.parse(range.to) - Date.parse(range.from) > 31 * 86_400_000;
  const lastOfDay = new Map<string, { at: string; count: number }>();
  for (const point of points) lastOfDay.set(dayOf(point.at, timeZone), point);
  const shown = long ? [...lastOfDay.values()] : points;
  const data = shown.map((point) => ({
    key: point.at,
    label: long ? dayLabel(dayOf(point.at, timeZone), locale) : formatInstant(point.at, locale, timeZone),
    count: point.count,
  }));
  // Joins and leaves since the last sample have moved the count: the line ends where the big number is.
  if (current !== null && points.length > 0 && points.at(-1)!.count !== current) {
    data.push({ key: "now", label: t("statistics.now"), count: current });
  }
  const first = points.at(0)?.count;
  const change = current !== null && first !== undefined ? current - first : null;

  return (
    <Card withBorder padding="lg" className={classes.panel} component="section" aria-labelledby="stats-subscribers">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
        <div>
          <Title order={2} size="h3" id="stats-subscribers">{t("statistics.subscribers")}</Title>
          <Text size="sm" c="dimmed">{t("statistics.subscribersNow")}</Text>
        </div>
        <div className={classes.figure}>
          <Text className={classes.bigNumber} data-testid="stats-subscribers-now">
            {current === null ? "—" : numbers.format(current)}
          </Text>
          {change !== null && (
            <Text size="sm" className={classes.change} data-trend={change > 0 ? "up" : change < 0 ? "down" : undefined} data-testid="stats-subscribers-change">
              {t("statistics.subscribersChange", { change: signedCount(change, numbers.format) })}
            </Text>
          )}
        </div>
      </Group>
      {current === null ? (
        <Text size="sm" c="dimmed" mt="md" data-testid="stats-subscribers-waiting">{t("statistics.subscribersWaiting")}</Text>
      ) : points.length === 0 ? (
        <Text size="sm" c="dimmed" mt="md">{t("statistics.noSamples")}</Text>
      ) : (
        <>
          <Text size="sm" mt="md" mb="sm" data-testid="stats-subscribers-summary">
            {t("statistics.subscribersSummary", {
              first: numbers.format(first!),
              // the big number, so the sentence ends where the figure above it stands
              last: numbers.format(current),
              change: signedCount(change!, numbers.format),
              from: formatInstant(points[0].at, locale, timeZone),
            })}
          </Text>
          <SubscribersChart data={data} seriesLabel={t("statistics.subscribers")} numberFormat={numbers} />
          <FiguresTable
            caption={t("statistics.subscribers")}
            columns={[t("statistics.column.date"), t("statistics.subscribers")]}
            rows={data.map((point) => ({ key: point.key, cells: [point.label, numbers.format(point.count)] }))}
            testId="stats-subscribers-table"
          />
        </>
      )}
    </Card>
  );
}

/** Joins and leaves per day of the range, quiet days included as zero. */
export function JoinsPanel({ stats, range, timeZone }: PanelProps) {
  const t = useT();
  const { language } = useLanguage();
  const locale = LOCALES[language];
  const numbers = new Intl.NumberFormat(locale);
  const byDay = new Map(stats.days.map((day) => [day.day, day]));
  const data = daysOf(range, timeZone).map((day) => ({
    label: dayLabel(day, locale),
    joins: byDay.get(day)?.joins ?? 0,
    leaves: byDay.get(day)?.leaves ?? 0,
  }));
  const joins = stats.days.reduce((sum, day) => sum + day.joins, 0);
  const leaves = stats.days.reduce((sum, day) => sum + day.leaves, 0);

  return (
    <Card withBorder padding="lg" className={classes.panel} component="section" aria-labelledby="stats-joins">
      <Title order={2} size="h3" id="stats-joins">{t("statistics.joinsTitle")}</Title>
      {stats.days.length === 0 ? (
        <Text size="sm" c="dimmed" mt="xs" data-testid="stats-joins-empty">{t("statistics.noJoins")}</Text>
      ) : (
        <>
          <Text size="sm" mt="xs" mb="sm" data-testid="stats-joins-summary">
            {t("statistics.joinsSummary", { joins: numbers.format(joins), leaves: numbers.format(leaves), net: signedCount(joins - leaves, numbers.format) })}
          </Text>
          <JoinsChart data={data} joinsLabel={t("statistics.joins")} leavesLabel={t("statistics.leaves")} />
          <FiguresTable
            caption={t("statistics.joinsTitle")}
            columns={[t("statistics.column.date"), t("statistics.joins"), t("statistics.leaves")]}
            rows={stats.days.map((day) => ({
              key: day.day,
              cells: [dayLabel(day.day, locale), numbers.format(day.joins), numbers.format(day.leaves)],
            }))}
            testId="stats-joins-table"
          />
        </>
      )}
    </Card>
  );
}
