/*
 * The channels screen as a person uses it, in Chromium, against the local Telegram Bot API:
 * create a project (the admin handle field drops a typed "@"), follow the instructions,
 * be told the admin has not messaged the bot yet, connect the channel once they have, see
 * it wait for the admin's Allow in Telegram and turn connected by itself, with the add
 * button disabled, then delete it.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { screenshot } from "../helpers/browser.ts";
import { approverAnswers } from "../helpers/publishing.ts";
import type { Stack } from "../helpers/stack.ts";
import { closeBrowserStack, openBrowserStack, signInThroughUi } from "../helpers/web.ts";

let stack: Stack;
let browser: Browser;
let page: Page;
beforeAll(async () => {
  ({ stack, browser, page } = await openBrowserStack({ telegram: true }));
});
afterAll(async () => {
  await closeBrowserStack({ stack, browser });
});

const soon = { timeout: 5_000 };

test("connect a Telegram channel through the dialog, see it connected, then delete it", async () => {
  await signInThroughUi(page, stack, "olga.petrova@example.com");
  const telegram = stack.telegram!;
  const bot = telegram.me.username;

  // Create the project. Validation speaks Russian; the handle field keeps no typed "@".
  await page.getByTestId("new-project").click();
  const create = page.getByRole("dialog");
  await create.getByRole("button", { name: "Создать проект" }).click();
  await expect.poll(() => create.getByText("Введите название проекта").count()).toBe(1);
  await expect.poll(() => create.getByText("Укажите Telegram администратора").count()).toBe(1);
  await create.getByLabel("Название проекта").fill("Городские новости");
  const handleInput = create.getByLabel("Telegram администратора");
  await handleInput.pressSequentially("@olga_news_admin");
  expect(await handleInput.inputValue()).toBe("olga_news_admin");
  await handleInput.fill("@@olga_news_admin");
  expect(await handleInput.inputValue()).toBe("olga_news_admin");
  await create.getByRole("button", { name: "Создать проект" }).click();
  await page.waitForURL(/\/project\/\d+$/);
  const projectId = Number(new URL(page.url()).pathname.split("/")[2]);

  // No channel yet: the empty state offers to connect one.
  await page.goto(`${stack.baseUrl}/project/${projectId}/channels`);
  await expect.poll(() => page.getByTestId("channels-empty").count(), soon).toBe(1);
  expect(await page.title()).toBe("Каналы | Pressa");
  await screenshot(page, "channels-empty");

  // Ольга created the channel; she has not written to the bot yet.
  const admin = telegram.addUser({ username: "olga_news_admin", first_name: "Ольга", last_name: "Петрова" });
  const channel = telegram.addChannel({ username: "gorod_novosti", title: "Городские новости", owner: admin.id });
  await page.getByTestId("add-channel").click();
  const dialog = page.getByRole("dialog", { name: "Подключение канала" });
  await expect.poll(() => dialog.getByTestId("bot-link").getAttribute("href"), soon).toBe(`https://t.me/${bot}`);
  await expect.poll(() => dialog.getByText("@olga_news_admin").count()).toBeGreaterThan(0);
  // Telegram is selectable; VK and Dzen are listed as coming soon.
  expect(await dialog.getByTestId("platform-telegram").getAttribute("aria-checked")).toBe("true");
  expect(await dialog.getByTestId("platform-vk").isDisabled()).toBe(true);
  expect(await dialog.getByTestId("platform-dzen").isDisabled()).toBe(true);
  await screenshot(page, "channels-add-dialog");

  // A link that is not a channel link is refused here, in Russian.
  const link = dialog.getByTestId("channel-link");
  await link.fill("https://example.com/news");
  await dialog.getByTestId("connect-channel").click();
  await expect.poll(() => dialog.getByText("Укажите публичную ссылку на канал", { exact: false }).count()).toBe(1);

  // The admin has not messaged the bot yet: the dedicated instruction shows.
  await link.fill(`https://t.me/${channel.username}`);
  await dialog.getByTestId("connect-channel").click();
  await expect.poll(() => dialog.getByTestId("connect-error").textContent(), soon).toContain(
    "Администратор проекта @olga_news_admin ещё не написал боту",
  );
  expect(await dialog.getByTestId("connect-error").textContent()).toContain(`@${bot}`);
  await screenshot(page, "channels-admin-not-registered");
  expect(await stack.sql`select 1 from app_public.channels`).toHaveLength(0);

  // The dialog says the admin must run the channel; a channel Ольга does not administer is refused, naming both.
  expect(await dialog.getByText("Администратор проекта управляет каналом").count()).toBe(1);
  telegram.userSends(admin.id, "/start");
  await stack.sql`select app_public.record_admin_chat('olga_news_admin', ${admin.id})`;
  const someoneElses = telegram.addChannel({ username: "chuzhoy_kanal", title: "Чужой канал" });
  await link.fill(`@${someoneElses.username}`);
  await dialog.getByTestId("connect-channel").click();
  await expect.poll(() => dialog.getByTestId("connect-error").textContent(), soon).toContain(
    "@olga_news_admin не администратор канала @chuzhoy_kanal",
  );
  await screenshot(page, "channels-approver-not-admin");
  expect(await stack.sql`select 1 from app_public.channels`).toHaveLength(0);

  // Her own channel connects.
  await link.fill(`https://t.me/${channel.username}`);
  await dialog.getByTestId("connect-channel").click();
  await expect.poll(() => page.getByTestId("channel-card").count(), soon).toBe(1);
  await expect.poll(() => dialog.isVisible()).toBe(false);
  const card = page.getByTestId("channel-card");
  expect(await card.getByText(`@${channel.username}`).count()).toBe(1);
  // Pending until the admin allows it in Telegram: the card says whom it waits for.
  expect(await card.getByTestId("channel-status").textContent()).toBe("Ожидает подключения");
  expect(await card.getByTestId("channel-awaiting").textContent()).toBe("Ждём подтверждения @olga_news_admin в Telegram");
  expect(await card.getByTestId("channel-approver").count()).toBe(0);
  await screenshot(page, "channels-awaiting");
  // She presses Allow in the bot; the card turns connected by itself, without a reload.
  expect((await approverAnswers(stack, admin.id, "allow")).text).toMatch(/Разрешено/);
  await expect.poll(() => card.getByTestId("channel-status").textContent(), { timeout: 10_000 }).toBe("Подключён");
  expect(await card.getByTestId("channel-awaiting").count()).toBe(0);
  // The approver Telegram confirmed: the handle and the name Telegram shows.
  expect(await card.getByTestId("channel-approver").textContent()).toContain("@olga_news_admin");
  expect(await card.getByTestId("channel-approver").textContent()).toContain("Ольга Петрова");
  const [stored] = await stack.sql`select type, link, status, config ->> 'chatId' as chat_id from app_public.channels`;
  expect(stored).toEqual({ type: "telegram", link: `@${channel.username}`, status: "connected", chatId: String(channel.id) });

  // The project page shows the confirmed approver too.
  await page.goto(`${stack.baseUrl}/project/${projectId}`);
  await expect.poll(() => page.getByTestId("project-approver").textContent(), soon).toBe("@olga_news_admin · Ольга Петрова");
  await screenshot(page, "project-approver");
  await page.goto(`${stack.baseUrl}/project/${projectId}/channels`);
  await expect.poll(() => page.getByTestId("channel-card").count(), soon).toBe(1);

  // One channel per project: the add button is disabled and says why.
  const add = page.getByTestId("add-channel");
  expect(await add.getAttribute("aria-disabled")).toBe("true");
  await add.hover();
  await expect.poll(() => page.getByRole("tooltip").textContent(), soon).toContain("Лимит достигнут");
  await add.click({ force: true }); // a disabled button does nothing
  expect(await page.getByRole("dialog").count()).toBe(0);
  await page.mouse.move(0, 0);
  await add.blur();
  await page.waitForTimeout(300); // the tooltip fades out
  await screenshot(page, "channels-connected");

  // The same page on a phone.
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, "channels-connected-phone");
  await page.setViewportSize({ width: 1280, height: 800 });

  // Delete it after confirming; the empty state comes back.
  await card.getByTestId("delete-channel").click();
  const confirm = page.getByRole("dialog", { name: "Удалить канал?" });
  await expect.poll(() => confirm.getByText(`@${channel.username}`, { exact: false }).count()).toBe(1);
  await confirm.getByTestId("confirm-delete").click();
  await expect.poll(() => page.getByTestId("channels-empty").count(), soon).toBe(1);
  expect(await stack.sql`select 1 from app_public.channels`).toHaveLength(0);
});

test("the add dialog on a phone, and without a configured bot it explains instead of linking", async () => {
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await signInThroughUi(phone, stack, "ivan.sidorov@example.com");
  const created = await phone.evaluate(async () => {
    const res = await fetch("/api/projects", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Спорт", adminHandle: "sport_admin" }),
    });
    return (await res.json()) as { id: number };
  });
  // The bot answers 503 as on a server without TELEGRAM_BOT_TOKEN.
  await phone.route("**/api/telegram/bot", (route) =>
    route.fulfill({
      status: 503,
      contentType: "application/json",
      body: JSON.stringify({ message: "The Telegram bot is not configured on this server", code: "telegram.notConfigured" }),
    }));
  await phone.goto(`${stack.baseUrl}/project/${created.id}/channels`);
  await phone.getByTestId("add-channel").click();
  const dialog = phone.getByRole("dialog", { name: "Подключение канала" });
  await expect.poll(() => dialog.getByTestId("bot-not-configured").count(), soon).toBe(1);
  expect(await dialog.getByTestId("bot-link").count()).toBe(0);
  expect(await dialog.getByText("@sport_admin").count()).toBeGreaterThan(0);
  // the operator's step is named, and the dialog sends nothing that could only fail
  expect(await dialog.getByTestId("bot-not-configured").textContent()).toContain("TELEGRAM_BOT_TOKEN");
  expect(await dialog.getByTestId("connect-channel").isDisabled()).toBe(true);
  await screenshot(phone, "channels-add-dialog-phone-no-bot");
  await phone.close();
});
