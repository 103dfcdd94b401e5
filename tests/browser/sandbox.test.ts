/*
 * `npm run demo` as a newcomer meets it (docs/sandbox.md): the real start (embedded
 * PostgreSQL, the API, the worker and the polling bot as processes) with PRESSA_SANDBOX=1 and
 * no bot token, and the whole loop in one browser: the sandbox's admin writes /start, a
 * project names them, its channel is connected and allowed in the sandbox's chat, a draft is
 * written and scheduled, its preview approved in that chat, and the post appears in the
 * sandbox's channel. The bot, the worker and the API reach the sandbox's Telegram over HTTP
 * (TELEGRAM_API_ROOT), as they would Telegram. Home of sandbox/sandbox.ts and of the screen
 * web/src/pages/Sandbox.page.tsx.
 */
import { now, toCalendarDate } from "@internationalized/date";
import postgres from "postgres";
import { afterAll, expect, test } from "vitest";
import { freePort } from "../../scripts/postgres.ts";
import { launchBrowser, screenshot } from "../helpers/browser.ts";
import { codeFrom, startSmtpSink } from "../helpers/smtp.ts";
import { ensureWebBuilt } from "../helpers/web.ts";

const root = new URL("../..", import.meta.url).pathname;
const TZ = "Europe/Moscow"; // a new project's timezone
const soon = { timeout: 10_000 };
const pad = (value: number) => String(value).padStart(2, "0");

const smtp = await startSmtpSink();
afterAll(() => smtp.close());

test("npm run demo: connect, Allow, draft, schedule, Approve in the sandbox, the post in the sandbox channel", async () => {
  await ensureWebBuilt();
  const dataDir = await Deno.makeTempDir({ prefix: "pressa-demo-" });
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const start = new Deno.Command("setsid", {
    args: [Deno.execPath(), "run", "-A", "scripts/start.ts"],
    cwd: root,
    // a fresh start with no bot token: the sandbox is Telegram
    env: { PRESSA_SANDBOX: "1", PORT: String(port), DATA_DIR: dataDir, SMTP_URL: smtp.url, DATABASE_URL: "", TELEGRAM_BOT_TOKEN: "", TELEGRAM_API_ROOT: "" },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let log = "";
  const reading = (async () => {
    for await (const text of start.stderr.pipeThrough(new TextDecoderStream())) log += text;
  })();
  const browser = await launchBrowser();
  let owner: postgres.Sql | undefined;
  try {
    await expect.poll(async () => {
      const health = await fetch(`${baseUrl}/api/health`).then((res) => res.json()).catch(() => undefined);
      return health?.bot === "ok" && health?.worker === "ok";
    }, { timeout: 90_000, interval: 250 }).toBe(true);
    expect(log).toContain("Telegram sandbox: a local Bot API server at http://127.0.0.1:");

    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const email = "newcomer@example.com";
    await page.goto(`${baseUrl}/`);
    await page.getByTestId("email-input").fill(email);
    await page.getByTestId("request-code").click();
    await page.getByTestId("code-input").fill(codeFrom(await smtp.waitForMail(email, 1, 20_000)));
    await page.waitForURL(`${baseUrl}/`);

    // The navigation leads to the sandbox; its admin writes /start to the bot, who answers.
    await page.getByTestId("nav-sandbox").click();
    await page.waitForURL(`${baseUrl}/sandbox`);
    const chat = page.getByTestId("sandbox-chat");
    const feed = page.getByTestId("sandbox-feed");
    await expect.poll(() => feed.textContent(), soon).toContain("Пока ничего не опубликовано.");
    await chat.getByTestId("sandbox-start").click();
    await expect.poll(() => chat.getByTestId("sandbox-message").count(), soon).toBe(2);
    expect(await chat.getByTestId("sandbox-message").last().textContent()).toContain("Я запомнил вас как @sandbox_admin");

    // A project with the sandbox's admin as its approver; its channel connected.
    await page.goto(`${baseUrl}/`);
    await page.getByTestId("new-project").click();
    const create = page.getByRole("dialog");
    await create.getByLabel("Название проекта").fill("Песочница");
    await create.getByLabel("Telegram администратора").fill("sandbox_admin");
    await create.getByRole("button", { name: "Создать проект" }).click();
    await page.waitForURL(/\/project\/\d+$/);
    const project = new URL(page.url()).pathname;
    await page.goto(`${baseUrl}${project}/channels`);
    await page.getByTestId("add-channel").click();
    const connect = page.getByRole("dialog", { name: "Подключение канала" });
    // the dialog's "message the bot" leads to the sandbox's chat, not to t.me
    await expect.poll(() => connect.getByTestId("bot-link").getAttribute("href"), soon).toBe("/sandbox");
    await connect.getByTestId("channel-link").fill("@sandbox_channel");
    await connect.getByTestId("connect-channel").click();
    await expect.poll(() => page.getByTestId("channel-awaiting").count(), soon).toBe(1);

    // Allow, pressed in the sandbox's chat as the admin would in Telegram.
    await page.getByTestId("nav-sandbox").click();
    const allow = chat.getByRole("button", { name: "✅ Разрешить" });
    await expect.poll(() => allow.count(), soon).toBe(1);
    await allow.click();
    await expect.poll(() => chat.textContent(), soon).toContain("✅ Разрешено: канал");

    // A draft, scheduled a few minutes ahead: due within two hours, its preview goes out at once.
    await page.goto(`${baseUrl}${project}/drafts`);
    await page.getByTestId("new-draft").click();
    const draft = page.getByRole("dialog", { name: "Новый черновик" });
    await draft.getByTestId("draft-title").fill("Открытие парка");
    await draft.getByTestId("draft-content").fill("В субботу открывается новый парк у реки.");
    await draft.getByTestId("draft-save").click();
    await expect.poll(() => draft.count(), soon).toBe(0);
    await page.goto(`${baseUrl}${project}/schedule`);
    await page.getByTestId("new-post").click();
    const form = page.getByRole("dialog", { name: "Запланировать пост" });
    const at = now(TZ).add({ minutes: 5 });
    await form.getByTestId("schedule-date").fill(toCalendarDate(at).toString());
    await form.getByTestId("schedule-time").fill(`${pad(at.hour)}:${pad(at.minute)}`);
    await form.getByTestId("schedule-draft").selectOption({ label: "Открытие парка" });
    await form.getByTestId("schedule-submit").click();
    await expect.poll(() => form.count(), soon).toBe(0);

    // The preview in the sandbox's chat, exactly as the channel will show it; Approve.
    await page.getByTestId("nav-sandbox").click();
    const approve = chat.getByRole("button", { name: "✅ Одобрить" });
    await expect.poll(() => approve.count(), { timeout: 20_000 }).toBe(1);
    expect(await chat.textContent()).toContain("В субботу открывается новый парк у реки.");
    await approve.click();
    await expect.poll(async () => (await chat.getByTestId("sandbox-message").last().textContent()) ?? "", soon).toMatch(/одобр/i);

    // Its time comes now rather than in five minutes: moved, and its publication queued at once.
    const psql = JSON.parse(log.split("\n").find((line) => line.includes("embedded PostgreSQL is running"))!).psql;
    owner = postgres(psql.replace(/^psql '|'$/g, ""), { max: 1, onnotice: () => {} });
    const [post] = await owner<{ id: string }[]>`update app_public.posts set scheduled_for = now() returning id`;
    await owner`select graphile_worker.add_job('posts__publish', json_build_object('postId', ${post.id}::bigint), job_key := 'post:' || ${post.id}::bigint || ':publish')`;
    await expect.poll(() => feed.getByTestId("sandbox-message").count(), { timeout: 20_000 }).toBe(1);
    expect(await feed.getByTestId("sandbox-message").textContent()).toContain("В субботу открывается новый парк у реки.");

    await screenshot(page, "sandbox-1440-light");
    await page.emulateMedia({ colorScheme: "dark" });
    await screenshot(page, "sandbox-1440-dark");
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, "sandbox-390-dark");
    await page.emulateMedia({ colorScheme: "light" });
    await screenshot(page, "sandbox-390-light");
  } finally {
    await owner?.end();
    await browser.close();
    Deno.kill(-start.pid, "SIGINT");
    expect((await start.status).code).toBe(0);
    await reading.catch(() => {});
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
}, 150_000);
