/*
 * The Statistics page as an owner reads it, in Chromium, light and dark, desktop and phone:
 * figures collected by the real bot from the local Bot API server (joins, leaves, reactions)
 * and the worker (the subscriber count at connection). Past hourly samples are written as the
 * worker would have written them: a test cannot wait a week. Then the invite links: made,
 * joined through, revoked, exported; and refused for a bot without "Invite users via link".
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { ChannelStats } from "../../contract/stats.ts";
import { screenshot } from "../helpers/browser.ts";
import { projectWithChannel } from "../helpers/publishing.ts";
import type { Stack } from "../helpers/stack.ts";
import { until } from "../helpers/until.ts";
import { closeBrowserStack, openBrowserStack, signedInPage } from "../helpers/web.ts";

const TZ = "Europe/Moscow"; // UTC+3 all year
const soon = { timeout: 10_000 };
const HOUR = 3_600_000;

let stack: Stack;
let browser: Browser;
let seeded: Awaited<ReturnType<typeof seed>>;

beforeAll(async () => {
  ({ stack, browser } = await openBrowserStack({ bot: true }));
  seeded = await seed();
});
afterAll(async () => {
  await closeBrowserStack({ stack, browser });
});

/** The weekday (1 = Monday) and hour of an instant in Moscow, as the best-times grid files it. */
function moscowSlot(at: Date) {
  const shifted = new Date(at.getTime() + 3 * HOUR);
  return { weekday: shifted.getUTCDay() === 0 ? 7 : shifted.getUTCDay(), hour: shifted.getUTCHours() };
}

async function seed() {
  const p = await projectWithChannel(stack, { timezone: TZ });
  const telegram = stack.telegram!;
  const stats = async () => (await stack.call("GET", `${p.base}/stats?from=${new Date(Date.now() - 7 * 24 * HOUR).toISOString()}`, undefined, p.cookie)).json as ChannelStats;
  // the worker counts the channel (its creator and the bot) once the approver allowed it
  await until(stats, (s) => s.subscribers.current === 2);
  const [{ id: channelId }] = await stack.sql<{ id: number }[]>`select id from app_public.channels where chat_id = ${p.channel.id}`;
  for (const [daysAgo, count] of [[6, 1], [4, 1], [2, 2]]) {
    await stack.sql`insert into app_private.subscriber_samples (channel_id, sampled_at, subscribers)
      values (${channelId}, now() - make_interval(days => ${daysAgo}), ${count})`;
  }

  // three people join through Telegram, one of them leaves: 2 + 3 - 1
  const readers = ["Анна", "Борис", "Вера"].map((first_name) => telegram.addUser({ first_name }));
  for (const reader of readers) telegram.userJoins(p.channel.id, reader.id);
  telegram.userLeaves(p.channel.id, readers[2].id);
  await until(stats, (s) => s.subscribers.current === 4 && s.days.reduce((n, d) => n + d.leaves, 0) === 1);

  // Two posts as posts__publish records them: the newer has fewer reactions. The older's title
  // is what a spreadsheet would run as a formula.
  const post = async (title: string, at: Date, reactions: Record<string, number>) => {
    const message = telegram.channelPost(p.channel.id, title);
    const url = `https://t.me/${p.channel.username}/${message.message_id}`;
    const [{ id }] = await stack.sql<{ id: number }[]>`
      insert into app_public.posts (project_id, title, content, status, scheduled_for, published_at, channel_chat_id, channel_message_ids, published_links)
      values (${p.project.id}, ${title}, 'text', 'published', ${at}, ${at}, ${p.channel.id}, ${stack.sql.json([message.message_id])},
              ${stack.sql.json({ [p.channel.username!]: url })})
      returning id`;
    telegram.setReactions(p.channel.id, message.message_id, reactions);
    return { id: Number(id), url, at };
  };
  const newer = await post("Утренний обзор", new Date(Date.now() - 26 * HOUR), { "👍": 5, "🔥": 2 });
  const older = await post('=HYPERLINK("x"), Итоги', new Date(Date.now() - 74 * HOUR), { "❤": 12 });
  await until(stats, (s) => s.posts.length === 2 && s.posts.every((post) => post.reactions.total > 0));
  const bare = await stack.call("POST", "/api/projects", { name: "Без канала", adminHandle: "stats_bare_admin" }, p.cookie);
  return { p, newer, older, bareId: bare.json.id as number };
}

const cellOf = (page: Page, at: Date) => {
  const { weekday, hour } = moscowSlot(at);
  return page.locator(`[data-testid="stats-best-time-cell"][data-weekday="${weekday}"][data-hour="${hour}"]`);
};

async function openStats(page: Page, projectId = seeded.p.project.id) {
  await page.goto(`${stack.baseUrl}/project/${projectId}/statistics`);
  await expect.poll(() => page.getByTestId("stats-page").count(), soon).toBe(1);
}

/** Once both charts are drawn: as tall a viewport as the page, so the fixed sidebar reaches the bottom of the picture. */
async function fullShot(page: Page, name: string) {
  await page.waitForFunction(() => document.querySelectorAll(".recharts-surface").length >= 2);
  const size = page.viewportSize()!;
  await page.setViewportSize({ width: size.width, height: await page.evaluate(() => document.documentElement.scrollHeight) });
  await screenshot(page, name);
  await page.setViewportSize(size);
}

for (const scheme of ["light", "dark"] as const) {
  test(`the figures the owner sees (${scheme})`, async () => {
    const { p, newer, older } = seeded;
    const page = await signedInPage({ stack, browser }, p.cookie, { colorScheme: scheme, language: "en" });
    await page.context().addInitScript((value) => localStorage.setItem("pressa.color-scheme", value), scheme);
    await openStats(page);
    expect(await page.evaluate(() => document.documentElement.dataset.mantineColorScheme)).toBe(scheme);

    // the project's navigation leads here
    expect(await page.getByRole("link", { name: "Statistics" }).count()).toBeGreaterThan(0);
    // no invented views, and why
    await expect.poll(() => page.getByText("Telegram doesn't give view counts to bots").count(), soon).toBe(1);

    await expect.poll(() => page.getByTestId("stats-subscribers-now").textContent(), soon).toBe("4");
    expect(await page.getByTestId("stats-subscribers-change").textContent()).toBe("+3 in this period");
    // the sentence under the big number ends at it, with the same change
    expect(await page.getByTestId("stats-subscribers-summary").textContent()).toMatch(/^From 1 on .+ to 4 now: \+3 in this period\.$/);
    expect(await page.getByTestId("stats-joins-summary").textContent()).toBe("3 joined and 1 left in this period (+2).");
    // the charts' figures as a table for screen readers
    await page.getByTestId("stats-joins-table").locator("summary").click();
    const today = new Intl.DateTimeFormat("en-GB", { timeZone: TZ, day: "numeric", month: "short" }).format(new Date());
    expect(await page.getByTestId("stats-joins-table").locator("tbody tr").first().innerText()).toBe(`${today}\t3\t1`);

    // newest first; sorting by reactions puts the most liked first
    const rows = page.getByTestId("stats-post");
    await expect.poll(() => rows.count(), soon).toBe(2);
    expect(await rows.first().getAttribute("data-post-id")).toBe(String(newer.id));
    expect(await rows.first().getByTestId("stats-post-total").textContent()).toBe("7");
    expect(await rows.first().getByTestId("stats-post-emoji").innerText()).toMatch(/👍 5\s+🔥 2/);
    expect(await rows.first().getByTestId("stats-post-link").getAttribute("href")).toBe(newer.url);
    await page.getByTestId("stats-sort-reactions").click();
    expect(await rows.first().getAttribute("data-post-id")).toBe(String(older.id));
    expect(await page.locator("th[aria-sort=descending]").innerText()).toContain("Reactions");
    await page.getByTestId("stats-sort-date").click();
    expect(await rows.first().getAttribute("data-post-id")).toBe(String(newer.id));

    // best times: each post's weekday and hour, its average written in the cell
    expect(await cellOf(page, older.at).innerText()).toContain("12");
    expect(await cellOf(page, newer.at).innerText()).toContain("7");
    expect(await page.getByTestId("stats-best-time").textContent()).toContain("12 reactions per post");

    // a week: the same figures from a shorter range
    await page.getByTestId("stats-range").getByText("7 days").click();
    await expect.poll(() => page.url()).toContain("/statistics");
    await expect.poll(() => rows.count(), soon).toBe(2);

    await fullShot(page, `statistics-${scheme}-1280`);
    await page.setViewportSize({ width: 390, height: 844 });
    await fullShot(page, `statistics-${scheme}-390`);
    await page.context().close();
  });
}

test("the posts table exports as CSV: quoted where needed, no formula", async () => {
  const { p, older } = seeded;
  const page = await signedInPage({ stack, browser }, p.cookie, { language: "en" });
  await openStats(page);
  await expect.poll(() => page.getByTestId("stats-post").count(), soon).toBe(2);
  await page.getByTestId("stats-sort-reactions").click();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("stats-posts-csv").click()]);
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  const csv = (await Deno.readTextFile(await download.path())).replace(/^\uFEFF/, "");
  const lines = csv.trimEnd().split("\r\n");
  expect(lines[0]).toBe("Post,Published,Reactions,By emoji,URL");
  expect(lines).toHaveLength(3);
  // the most reacted first, as sorted on screen; the title quoted and kept from running as a formula
  expect(lines[1]).toMatch(/^"'=HYPERLINK\(""x""\), Итоги","\d+ \w+ \d{4}, \d\d:\d\d",12,❤ 12,/);
  expect(lines[1].endsWith(`,${older.url}`)).toBe(true);
  await page.context().close();
});

test("invite links: created with its url, joined through, revoked after a confirmation, exported", async () => {
  const { p } = seeded;
  const page = await signedInPage({ stack, browser }, p.cookie, { language: "en" });
  await openStats(page);
  await expect.poll(() => page.getByTestId("stats-links-empty").count(), soon).toBe(1);

  // names are checked before Telegram is asked, in the interface's words
  await page.getByTestId("stats-link-create").click();
  await expect.poll(() => page.getByText("Give the invite link a name.").count(), soon).toBe(1);
  await page.getByTestId("stats-link-name").fill("x".repeat(33));
  await page.getByTestId("stats-link-create").click();
  await expect.poll(() => page.getByText("An invite link's name is at most 32 characters.").count(), soon).toBe(1);
  expect(stack.telegram!.inviteLinks(p.channel.id)).toHaveLength(0);

  await page.getByTestId("stats-link-name").fill("Spring sale");
  await page.getByTestId("stats-link-create").click();
  const row = page.getByTestId("stats-link").filter({ hasText: "Spring sale" });
  await expect.poll(() => row.count(), soon).toBe(1);
  const [made] = stack.telegram!.inviteLinks(p.channel.id);
  expect(made.name).toBe("Spring sale");
  expect(await row.getByTestId("stats-link-url").textContent()).toBe(made.invite_link);
  expect(await row.getByTestId("stats-link-state").textContent()).toBe("Active");

  // someone joins through it: the link's figure, on the next visit
  const reader = stack.telegram!.addUser({ first_name: "Дина" });
  stack.telegram!.userJoins(p.channel.id, reader.id, { inviteLink: made.invite_link });
  await until(
    async () => (await stack.call("GET", `${p.base}/invite-links`, undefined, p.cookie)).json as { joins: number }[],
    (links) => links[0]?.joins === 1,
  );
  await page.reload();
  await expect.poll(() => row.getByTestId("stats-link-joins").textContent(), soon).toBe("1");

  // revoke: asked first; Cancel changes nothing
  await row.getByTestId("stats-link-revoke").click();
  const dialog = page.getByRole("dialog");
  await expect.poll(() => dialog.getByText("“Spring sale” stops working in Telegram").count(), soon).toBe(1);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect.poll(() => dialog.count(), soon).toBe(0);
  expect(stack.telegram!.inviteLinks(p.channel.id)[0].is_revoked).toBe(false);
  await row.getByTestId("stats-link-revoke").click();
  await dialog.getByTestId("confirm-delete").click();
  await expect.poll(() => row.getByTestId("stats-link-state").textContent(), soon).toBe("Revoked");
  expect(await row.getByTestId("stats-link-revoke").count()).toBe(0);
  expect(await row.getByTestId("stats-link-joins").textContent()).toBe("1");
  expect(stack.telegram!.inviteLinks(p.channel.id)[0].is_revoked).toBe(true);

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("stats-links-csv").click()]);
  const csv = (await Deno.readTextFile(await download.path())).replace(/^\uFEFF/, "").trimEnd().split("\r\n");
  expect(csv[0]).toBe("Name,URL,Joins,Leaves,Created,State");
  expect(csv[1]).toMatch(new RegExp(`^Spring sale,${made.invite_link.replace(/[+.]/g, "\\$&")},1,0,".+",Revoked$`));
  await screenshot(page, "statistics-links-light-1280");
  await page.context().close();
});

test("a link's state reads whole in Russian at 1440; on a phone its table says it scrolls and names wrap between words", async () => {
  const { p } = seeded;
  const made = await stack.call("POST", `${p.base}/invite-links`, { name: "Новогодняя распродажа подписок" }, p.cookie);
  expect(made.status).toBe(201);
  const page = await signedInPage({ stack, browser }, p.cookie, { viewport: { width: 1440, height: 900 }, language: "ru" });
  await openStats(page);
  const row = page.getByTestId("stats-link").filter({ hasText: "Новогодняя распродажа подписок" });
  await expect.poll(() => row.count(), soon).toBe(1);
  const badge = row.getByTestId("stats-link-state");
  expect(await badge.textContent()).toBe("Действует");
  // nothing of the word is cut off: its label is as wide as its text
  const label = badge.locator(".mantine-Badge-label");
  expect(await label.evaluate((node) => node.scrollWidth <= node.clientWidth)).toBe(true);

  await page.setViewportSize({ width: 390, height: 844 });
  const hint = page.getByText("Таблицу можно прокрутить вбок, чтобы увидеть все столбцы.").first();
  await expect.poll(() => hint.isVisible(), soon).toBe(true);
  // the name's cell is at least as wide as its longest word: no word is broken inside
  const name = row.locator("th");
  expect(await name.evaluate((cell) => {
    const range = document.createRange();
    range.selectNodeContents(cell);
    const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
    const words = cell.textContent!.trim().split(/\s+/).length;
    return lines.size <= words;
  })).toBe(true);
  await row.scrollIntoViewIfNeeded();
  await screenshot(page, "statistics-links-ru-390");
  await page.setViewportSize({ width: 1440, height: 900 });
  await screenshot(page, "statistics-links-ru-1440");
  await page.context().close();
});

test("without the right to invite, the page says how to grant it; the rest still shows", async () => {
  const { p } = seeded;
  stack.telegram!.setBotRights(p.channel.id, { can_invite_users: false });
  try {
    const page = await signedInPage({ stack, browser }, p.cookie, { language: "ru", viewport: { width: 390, height: 844 } });
    await openStats(page);
    await page.getByTestId("stats-link-name").fill("Партнёры");
    await page.getByTestId("stats-link-create").click();
    const help = page.getByTestId("stats-cannot-invite");
    await expect.poll(() => help.count(), soon).toBe(1);
    expect(await help.innerText()).toContain(`@${p.channel.username}`);
    expect(await help.innerText()).toContain("«Пригласительные ссылки»");
    expect(await page.getByTestId("stats-link").filter({ hasText: "Партнёры" }).count()).toBe(0);
    // the figures are all still there
    const now = ((await stack.call("GET", `${p.base}/stats`, undefined, p.cookie)).json as ChannelStats).subscribers.current;
    expect(await page.getByTestId("stats-subscribers-now").textContent()).toBe(String(now));
    expect(await page.getByTestId("stats-post").count()).toBe(2);
    await screenshot(page, "statistics-no-right-light-390");
    await page.context().close();
  } finally {
    stack.telegram!.setBotRights(p.channel.id, "administrator");
  }
});

test("a project without a channel says what will appear and leads to Channels", async () => {
  const page = await signedInPage({ stack, browser }, seeded.p.cookie, { language: "en" });
  await openStats(page, seeded.bareId);
  const empty = page.getByTestId("stats-no-channel");
  await expect.poll(() => empty.count(), soon).toBe(1);
  await empty.getByRole("link", { name: "Open channels" }).click();
  await page.waitForURL(new RegExp(`/project/${seeded.bareId}/channels$`));
  await page.context().close();
});
