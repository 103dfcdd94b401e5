import { Button, Card, EmptyState, Group, Skeleton, Table, Text, Title } from "@mantine/core";
import "@mantine/core/styles/Card.layer.css";
import "@mantine/core/styles/EmptyState.layer.css";
import "@mantine/core/styles/Skeleton.layer.css";
import "@mantine/core/styles/Table.layer.css";
import { Link } from "react-router-dom";
import type { AdReport, AdReportItem } from "../../../contract/ads.ts";
import { roleCan } from "../../../contract/team.ts";
import { useAdReport } from "../api/ads.ts";
import { BackLink } from "../components/BackLink/BackLink.tsx";
import { FullPageLoader } from "../components/FullPageLoader/FullPageLoader.tsx";
import { IconFileText, IconReceipt } from "../components/Icons/Icons.tsx";
import { LoadError } from "../components/LoadError/LoadError.tsx";
import { PageHeader } from "../components/PageHeader/PageHeader.tsx";
import { ProjectLoadError } from "../components/ProjectLoadError/ProjectLoadError.tsx";
import { downloadCsv, toCsv } from "../components/Stats/csv.ts";
import { RangePresets, useRangePreset } from "../components/Stats/RangePresets.tsx";
import stats from "../components/Stats/Stats.module.css";
import { TimezonePill } from "../components/TimezonePill/TimezonePill.tsx";
import { useRouteProject } from "../hooks/useRouteProject.ts";
import { type TranslationKey, useLanguage, useT } from "../i18n/i18n.tsx";
import { adRemovalOf, type AdRemoval, formatMoney } from "../lib/adReport.ts";
import { LOCALES } from "../lib/formatDate.ts";
import { usePageTitle } from "../lib/pageTitle.ts";
import { projectPath } from "../lib/projectSections.ts";
import { formatInstant, projectTimeZone } from "../lib/projectTime.ts";
import classes from "./Ads.module.css";

const REMOVAL_KEYS: Record<AdRemoval["state"] | "dueByHand", TranslationKey> = {
  removed: "adReport.removal.removed",
  kept: "adReport.removal.kept",
  bot: "adReport.removal.bot",
  byHand: "adReport.removal.byHand",
  due: "adReport.removal.due",
  dueByHand: "adReport.removal.dueByHand",
};

/**
 * The ad report (docs/ads.md, "Ad report"): the ads of a period, where each stands in its format,
 * its reactions and price, the totals per currency, and CSV of the table. The period is the
 * Statistics page's.
 */
export default function AdsPage() {
  const t = useT();
  const { language } = useLanguage();
  const locale = LOCALES[language];
  usePageTitle(t("section.ads"));
  const { projectId, project, failed } = useRouteProject();
  const { preset, range, choose } = useRangePreset();
  const { report, isLoading, error, mutate } = useAdReport(projectId, range);

  if (failed) return <ProjectLoadError />;
  if (!project || projectId === null) return <FullPageLoader fullHeight={false} />;
  const timeZone = projectTimeZone(project.timezone);
  const at = (iso: string) => formatInstant(iso, locale, timeZone);
  const removalText = (item: AdReportItem) => {
    const removal = adRemovalOf(item);
    if (removal.state === "kept") return t(REMOVAL_KEYS.kept);
    const key = removal.state === "due" && removal.byHand ? "dueByHand" : removal.state;
    return t(REMOVAL_KEYS[key], { time: at(removal.at) });
  };
  const priceText = (item: AdReportItem) => item.price ? formatMoney(item.price.amount, item.price.currency, locale) : t("adReport.noPrice");
  const publishedText = (item: AdReportItem) => item.publishedAt ? at(item.publishedAt) : t("adReport.planned", { time: at(item.scheduledFor) });

  const exportCsv = (items: AdReport["items"]) => {
    const csv = toCsv(
      [
        t("adReport.column.advertiser"), t("adReport.column.erid"), t("statistics.column.post"), t("statistics.column.published"),
        t("adReport.column.topUntil"), t("adReport.column.removal"), t("statistics.column.reactions"), t("adReport.column.price"),
        t("adReport.column.currency"),
      ],
      items.map((item) => [
        item.advertiser, item.erid, item.title, publishedText(item), at(item.topUntil), removalText(item), item.reactions,
        item.price?.amount ?? null, item.price?.currency ?? null,
      ]),
    );
    downloadCsv(`${project.name} – ${t("section.ads")}.csv`, csv);
  };

  const body = () => {
    if (isLoading && !report) {
      return <Skeleton height={240} radius="md" role="status" aria-busy="true" aria-label={t("common.loading")} />;
    }
    if (error || !report) {
      return <LoadError message={t("adReport.loadFailed")} retryLabel={t("common.retry")} onRetry={() => void mutate()} />;
    }
    if (report.items.length === 0) {
      return (
        <Card padding="xl" style={{ borderStyle: "dashed" }} data-testid="ads-empty">
          <EmptyState py="xl" variant="light" icon={<IconReceipt size={26} />} title={t("adReport.emptyTitle")} description={t("adReport.emptyText")}>
            {roleCan(project.role, "drafts.write") && (
              <EmptyState.Actions>
                <Button component={Link} to={projectPath(project.id, "drafts")} variant="default" leftSection={<IconFileText size={18} />}>
                  {t("adReport.openDrafts")}
                </Button>
              </EmptyState.Actions>
            )}
          </EmptyState>
        </Card>
      );
    }
    const numbers = new Intl.NumberFormat(locale);
    return (
      <>
        <Card withBorder padding="lg" className={stats.panel} component="section" aria-labelledby="ads-table-title">
          <Group justify="space-between" align="flex-start" gap="xs" wrap="wrap">
            <div>
              <Title order={2} size="h3" id="ads-table-title">{t("adReport.table")}</Title>
              <Text size="sm" c="dimmed">{t("adReport.tableHint")}</Text>
            </div>
            <Button variant="default" size="xs" onClick={() => exportCsv(report.items)} data-testid="ads-csv">{t("statistics.exportCsv")}</Button>
          </Group>
          {/* Scrolls sideways on a phone; a tab stop, so the keyboard can scroll it too (the rows hold no link). */}
          <div className={`${stats.tableScroll} ${classes.scroller}`} tabIndex={0} role="region" aria-label={t("adReport.table")}>
            <Table verticalSpacing="xs" mt="md" className={classes.table} data-testid="ads-table">
              <caption className={stats.visuallyHidden}>{t("adReport.table")}</caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col" className={classes.advertiser}>{t("adReport.column.advertiser")}</Table.Th>
                  <Table.Th scope="col">{t("adReport.column.erid")}</Table.Th>
                  <Table.Th scope="col">{t("statistics.column.post")}</Table.Th>
                  <Table.Th scope="col">{t("statistics.column.published")}</Table.Th>
                  <Table.Th scope="col">{t("adReport.column.topUntil")}</Table.Th>
                  <Table.Th scope="col">{t("adReport.column.removal")}</Table.Th>
                  <Table.Th scope="col" className={stats.numeric}>{t("statistics.column.reactions")}</Table.Th>
                  <Table.Th scope="col" className={stats.numeric}>{t("adReport.column.price")}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {report.items.map((item) => {
                  const removal = adRemovalOf(item);
                  return (
                    <Table.Tr key={item.postId} data-testid="ad-row" data-post-id={item.postId}>
                      <Table.Th scope="row" className={classes.advertiser} data-testid="ad-advertiser">{item.advertiser}</Table.Th>
                      <Table.Td className={classes.erid} data-testid="ad-erid">{item.erid}</Table.Td>
                      <Table.Td className={classes.title} data-testid="ad-title">{item.title}</Table.Td>
                      <Table.Td className={classes.when} data-testid="ad-published" data-planned={item.publishedAt ? undefined : true}>
                        {publishedText(item)}
                      </Table.Td>
                      <Table.Td className={classes.when} data-testid="ad-top-until">{at(item.topUntil)}</Table.Td>
                      <Table.Td className={classes.removal} data-testid="ad-removal" data-state={removal.state}>
                        {removalText(item)}
                      </Table.Td>
                      <Table.Td className={stats.numeric} data-testid="ad-reactions">{numbers.format(item.reactions)}</Table.Td>
                      <Table.Td className={stats.numeric} data-testid="ad-price" data-empty={item.price ? undefined : true}>
                        {priceText(item)}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </div>
          <Text className={stats.scrollHint} aria-hidden="true" data-testid="ads-scroll-hint">{t("statistics.scrollHint")}</Text>
        </Card>
        <Card withBorder padding="lg" mt="md" component="section" aria-labelledby="ads-totals-title" data-testid="ads-totals">
          <Title order={2} size="h3" id="ads-totals-title">{t("adReport.totals")}</Title>
          {report.totals.length === 0 ? (
            <Text size="sm" c="dimmed" mt="xs">{t("adReport.totalsNone")}</Text>
          ) : (
            <ul className={classes.totals}>
              {report.totals.map((total) => (
                <li key={total.currency} className={classes.total} data-testid="ads-total" data-currency={total.currency}>
                  {formatMoney(total.amount, total.currency, locale)}
                </li>
              ))}
            </ul>
          )}
        </Card>
      </>
    );
  };

  return (
    <>
      <PageHeader
        eyebrow={<BackLink to={projectPath(project.id)} label={project.name} />}
        title={t("section.ads")}
        description={
          <>
            {t("adReport.description")}
            <TimezonePill timeZone={timeZone} />
          </>
        }
      />
      <RangePresets preset={preset} onChoose={choose} testId="ads-range" />
      <div data-testid="ads-page">{body()}</div>
    </>
  );
}
