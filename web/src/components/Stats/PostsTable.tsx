import { Anchor, Button, Card, Group, Table, Text, Title, UnstyledButton } from "@mantine/core";
import "@mantine/core/styles/Table.layer.css";
import { Fragment, useState } from "react";
import type { ChannelStats } from "../../../../contract/stats.ts";
import { useLanguage, useT } from "../../i18n/i18n.tsx";
import { LOCALES } from "../../lib/formatDate.ts";
import { formatInstant } from "../../lib/projectTime.ts";
import { IconArrowUp, IconExternalLink } from "../Icons/Icons.tsx";
import { downloadCsv, toCsv } from "./csv.ts";
import classes from "./Stats.module.css";

type Post = ChannelStats["posts"][number];
type SortKey = "date" | "reactions";

/** "custom:123" is a custom emoji and "paid" the Star reactions: words, not the raw key. */
function emojiName(key: string, t: ReturnType<typeof useT>): string {
  if (key === "paid") return t("statistics.paidReaction");
  if (key.startsWith("custom:")) return t("statistics.customReaction");
  return key;
}

/** Most given first, then by key, so the same counts read the same way every time. */
const emojiEntries = (post: Post) => Object.entries(post.reactions.byEmoji).sort(([a, x], [b, y]) => y - x || a.localeCompare(b));

/** Published posts of the range with their reactions, newest or most reacted first, each linked to the channel. */
export function PostsTable({ posts, timeZone, projectName }: { posts: ChannelStats["posts"]; timeZone: string; projectName: string }) {
  const t = useT();
  const { language } = useLanguage();
  const locale = LOCALES[language];
  const numbers = new Intl.NumberFormat(locale);
  const [sort, setSort] = useState<SortKey>("date");
  const sorted = [...posts].sort((a, b) =>
    sort === "reactions"
      ? b.reactions.total - a.reactions.total || Date.parse(b.publishedAt) - Date.parse(a.publishedAt)
      : Date.parse(b.publishedAt) - Date.parse(a.publishedAt) || b.postId - a.postId
  );

  const exportCsv = () => {
    const csv = toCsv(
      [t("statistics.column.post"), t("statistics.column.published"), t("statistics.column.reactions"), t("statistics.column.byEmoji"), "URL"],
      sorted.map((post) => [
        post.title,
        formatInstant(post.publishedAt, locale, timeZone),
        post.reactions.total,
        emojiEntries(post).map(([key, n]) => `${emojiName(key, t)} ${n}`).join(" "),
        post.url ?? "",
      ]),
    );
    downloadCsv(`${projectName} – ${t("statistics.posts")}.csv`, csv);
  };

  const header = (key: SortKey, label: string) => (
    <Table.Th scope="col" aria-sort={sort === key ? "descending" : "none"} className={key === "reactions" ? classes.numeric : undefined}>
      <UnstyledButton className={classes.sortButton} onClick={() => setSort(key)} data-testid={`stats-sort-${key}`} aria-pressed={sort === key}>
        {label}
        <IconArrowUp size={14} className={classes.sortIcon} data-active={sort === key || undefined} style={{ transform: "rotate(180deg)" }} />
      </UnstyledButton>
    </Table.Th>
  );

  return (
    <Card withBorder padding="lg" className={classes.panel} component="section" aria-labelledby="stats-posts">
      <Group justify="space-between" align="flex-start" gap="xs" wrap="wrap">
        <div>
          <Title order={2} size="h3" id="stats-posts">{t("statistics.posts")}</Title>
          <Text size="sm" c="dimmed">{t("statistics.postsHint")}</Text>
        </div>
        {posts.length > 0 && (
          <Button variant="default" size="xs" onClick={exportCsv} data-testid="stats-posts-csv">{t("statistics.exportCsv")}</Button>
        )}
      </Group>
      {posts.length === 0 ? (
        <Text size="sm" c="dimmed" mt="md" data-testid="stats-posts-empty">{t("statistics.noPosts")}</Text>
      ) : (
        <>
        <div className={classes.tableScroll}>
          <Table verticalSpacing="xs" mt="md" data-testid="stats-posts-table" className={classes.postsTable}>
            <caption className={classes.visuallyHidden}>{t("statistics.posts")}</caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t("statistics.column.post")}</Table.Th>
                {header("date", t("statistics.column.published"))}
                {header("reactions", t("statistics.column.reactions"))}
                <Table.Th scope="col" className={classes.emojiColumn}>{t("statistics.column.byEmoji")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sorted.map((post) => (
                <Table.Tr key={post.postId} data-testid="stats-post" data-post-id={post.postId}>
                  <Table.Td className={classes.titleCell}>
                    {post.url ? (
                      <Anchor href={post.url} target="_blank" rel="noreferrer" aria-label={t("statistics.openPost", { title: post.title })} data-testid="stats-post-link" className={classes.postLink}>
                        {post.title}
                        <IconExternalLink size={14} className={classes.linkIcon} />
                      </Anchor>
                    ) : (
                      post.title
                    )}
                  </Table.Td>
                  <Table.Td className={classes.dateCell}>
                    <time dateTime={post.publishedAt}>{formatInstant(post.publishedAt, locale, timeZone)}</time>
                  </Table.Td>
                  <Table.Td className={classes.numeric} data-testid="stats-post-total">{numbers.format(post.reactions.total)}</Table.Td>
                  <Table.Td className={classes.emojiColumn} data-testid="stats-post-emoji">
                    {emojiEntries(post).map(([key, n], index) => (
                      <Fragment key={key}>
                        {index > 0 && " "}
                        <span className={classes.emoji}>
                          {emojiName(key, t)} {numbers.format(n)}
                        </span>
                      </Fragment>
                    ))}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </div>
        <Text className={classes.scrollHint} aria-hidden="true">{t("statistics.scrollHint")}</Text>
        </>
      )}
    </Card>
  );
}
