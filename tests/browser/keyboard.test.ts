/*
 * The main flows with the keyboard alone, in Chromium: nothing here clicks, hovers or fills a
 * field. Keys go to whatever has the focus (page.keyboard); locators only read the page. One
 * signed-in page goes through sign-in, a new project, drafts (added, reordered with dnd-kit's
 * keyboard sensor, deleted), a post scheduled on a day of the calendar and sent for approval
 * from its details, and a message to the assistant. Along the way: dialogs keep the focus
 * inside while open, Escape closes them and the focus goes back to what opened them (or, when
 * that is gone, to its neighbour), and the focused control always shows that it has the focus.
 */
import { now, toCalendarDate } from "@internationalized/date";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { approverAnswers, hasButton } from "../helpers/publishing.ts";
import { codeFrom } from "../helpers/smtp.ts";
import { type Stack, uniqueEmail } from "../helpers/stack.ts";
import { closeBrowserStack, openBrowserStack } from "../helpers/web.ts";

let stack: Stack;
let browser: Browser;
let page: Page;
beforeAll(async () => {
  ({ stack, browser, page } = await openBrowserStack({ telegram: true, openai: true }));
  // Reduced motion: dialogs open at once, and a focus style is compared without waiting for fades.
  await page.emulateMedia({ reducedMotion: "reduce" });
});
afterAll(async () => {
  await closeBrowserStack({ stack, browser });
});

const soon = { timeout: 15_000 };
const TZ = "Europe/Moscow"; // a new project's timezone
const REPLY = "Попробуйте рубрику «Книга недели»: обложка, три мысли и вопрос читателям.";

/** What has the focus, as far as these tests care. */
type Focused = {
  id: string;
  testId: string | null;
  tag: string;
  name: string;
  href: string | null;
  /** The calendar day it is in. */
  date: string | null;
  /** The draft row it is in. */
  draftId: string | null;
  /** The title of the dialog it is in, null outside dialogs. */
  dialog: string | null;
  /** At a glance it shows the focus: a drawn outline or a shadow. */
  ring: boolean;
};

const focused = () =>
  page.evaluate((): Focused | null => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return null;
    const dialog = el.closest('[role="dialog"]');
    const style = getComputedStyle(el);
    const titleId = dialog?.getAttribute("aria-labelledby");
    return {
      id: el.id,
      testId: el.getAttribute("data-testid"),
      tag: el.tagName.toLowerCase(),
      name: el.getAttribute("aria-label") ?? el.textContent?.trim() ?? "",
      href: el.getAttribute("href"),
      date: el.closest("[data-date]")?.getAttribute("data-date") ?? null,
      draftId: el.closest("[data-draft-id]")?.getAttribute("data-draft-id") ?? null,
      dialog: dialog ? (titleId ? document.getElementById(titleId)?.textContent ?? "" : "") : null,
      ring: el.matches(":focus-visible") && ((style.outlineStyle !== "none" && style.outlineWidth !== "0px") || style.boxShadow !== "none"),
    };
  });
const focusedTestId = async () => (await focused())?.testId ?? null;
const describe = (f: Focused | null) => (f ? `${f.tag}[${f.testId ?? f.name.slice(0, 40)}]` : "body");

/** Every control Tab reached that did not show it had the focus. */
const unseen = new Set<string>();
const compared = new Set<string>();
let tabStops = 0;

/** Notes a control Tab reached in `unseen` if it does not show its focus. */
async function checkStop(f: Focused | null) {
  tabStops += 1;
  if (!f || f.ring) return;
  // No outline or shadow (a field's border, a box around it?): compare it focused and not, once.
  const key = `${new URL(page.url()).pathname} ${f.dialog ?? ""} ${f.id} ${describe(f)}`;
  if (compared.has(key)) return;
  compared.add(key);
  let shown = await focusIndicator();
  // measured once more after a pause: on a loaded machine a control may still be settling
  // (a popover closing, a row re-rendering) when the first frames pass
  if (!shown.visible || shown.changes.length === 0) {
    await page.waitForTimeout(300);
    shown = await focusIndicator();
  }
  if (!shown.visible || shown.changes.length === 0) unseen.add(key);
}

/**
 * Presses Tab (or Shift+Tab) until the focus is on what `match` wants; answers how many
 * presses. Each control passed on the way is checked for a visible focus (see `unseen`).
 */
async function tabTo(what: string, match: (f: Focused) => boolean, { back = false, max = 60 } = {}) {
  const trail: string[] = [];
  for (let presses = 1; presses <= max; presses += 1) {
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
    const f = await focused();
    await checkStop(f);
    if (f && match(f)) return presses;
    trail.push(describe(f));
  }
  throw new Error(`${what} not reached in ${max} presses of ${back ? "Shift+Tab" : "Tab"}: ${trail.join(" → ")}`);
}
const byTestId = (testId: string) => (f: Focused) => f.testId === testId;
const linkTo = (path: string) => (f: Focused) => f.tag === "a" && f.href === path;

/**
 * How the focused control shows its focus: what differs between it focused and not (the
 * control itself or one of the three boxes around it, e.g. the chat's message box). An
 * outline counts only when drawn. Answers whether it matches :focus-visible and the changes.
 */
async function focusIndicator() {
  return await page.evaluate(async () => {
    const el = document.activeElement as HTMLElement;
    const frames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const chain: HTMLElement[] = [];
    for (let node: HTMLElement | null = el; node && node !== document.body && chain.length < 4; node = node.parentElement) chain.push(node);
    const properties = ["outline-style", "outline-width", "outline-color", "box-shadow", "border-top-color", "background-color", "opacity"];
    const snapshot = () => chain.map((node) => {
      const style = getComputedStyle(node);
      return properties.map((property) => style.getPropertyValue(property));
    });
    const visible = el.matches(":focus-visible");
    await frames(); // a focus style fading in (briefly, under reduced motion) has arrived
    const on = snapshot();
    el.blur();
    await frames();
    const off = snapshot();
    el.focus({ preventScroll: true });
    await frames();
    const changes: string[] = [];
    on.forEach((values, level) => {
      const drawnOutline = values[0] !== "none" && values[1] !== "0px";
      values.forEach((value, index) => {
        if (value === off[level][index]) return;
        if (properties[index].startsWith("outline") && !drawnOutline) return;
        changes.push(`${level === 0 ? "itself" : `box ${level} up`}: ${properties[index]} ${off[level][index]} → ${value}`);
      });
    });
    return { visible, changes, stillFocused: document.activeElement === el };
  });
}

async function expectFocusVisible(where: string) {
  const shown = await focusIndicator();
  expect(shown.visible, `${where}: :focus-visible`).toBe(true);
  expect(shown.changes.length, `${where}: nothing shows the focus`).toBeGreaterThan(0);
  expect(shown.stillFocused, `${where}: focus restored after the check`).toBe(true);
  return shown.changes;
}

/** Tab and Shift+Tab, `presses` of each, never take the focus out of the dialog titled `title`. */
async function expectFocusTrapped(title: string, presses: number) {
  for (const key of ["Tab", "Shift+Tab"]) {
    for (let i = 1; i <= presses; i += 1) {
      await page.keyboard.press(key);
      const f = await focused();
      expect(f?.dialog, `${key} ×${i} left the dialog for ${describe(f)}`).toBe(title);
      await checkStop(f);
    }
  }
}

const dialogCount = () => page.getByRole("dialog").count();
const toasts = () => page.getByTestId("toast-region").textContent();
const titlesOnScreen = () => page.getByTestId("draft-row-title").allTextContents();

/** The session cookie the browser holds, for seeding through the API. */
async function browserCookie() {
  return (await page.context().cookies()).map((cookie) => `${cookie.name}=${cookie.value}`).join("; ");
}

// What the flows hand on to each other: one user, one project, one post, in this order.
const handle = `keys_admin_${Date.now().toString(36)}`;
let admin: { id: number };
let channel: { username?: string };
let project = "";
let projectId = 0;
let postId = 0;
let tomorrow = "";
const detailsDialog = "Стихи о весне";

test("sign in: type the e-mail, Enter, type the code from the mail, Enter", async () => {
  const email = uniqueEmail("keys");
  await page.goto(`${stack.baseUrl}/`);
  await page.waitForURL(/\/auth$/);
  // the e-mail field has the focus; Enter asks for a code, which is typed in
  await expect.poll(focusedTestId, soon).toBe("email-input");
  await expectFocusVisible("e-mail field");
  await page.keyboard.type(email);
  await page.keyboard.press("Enter");
  const code = codeFrom(await stack.smtp.waitForMail(email));
  await expect.poll(focusedTestId, soon).toBe("code-input");
  await page.keyboard.type(code);
  await page.keyboard.press("Enter");
  await page.waitForURL(`${stack.baseUrl}/`);
  await expect.poll(() => page.getByTestId("greeting").count(), soon).toBe(1);
});

test("create a project: Tab to New project; its dialog holds the focus, Escape gives it back; Enter creates", async () => {
  // The approver it names has started the bot, and owns the channel connected to it below.
  const telegram = stack.telegram!;
  admin = telegram.addUser({ username: handle, first_name: "Admin", language_code: "ru", startedBot: true });
  await stack.sql`select app_public.record_admin_chat(${handle}, ${admin.id})`;
  channel = telegram.addChannel({ username: `keys_channel_${Date.now().toString(36)}`, title: "Книги", owner: admin.id });

  await tabTo("New project", byTestId("new-project"));
  await expectFocusVisible("New project");
  await page.keyboard.press("Enter");
  const projectDialog = "Новый проект";
  await expect.poll(async () => (await focused())?.dialog, soon).toBe(projectDialog);
  await expectFocusVisible("project name");
  await expectFocusTrapped(projectDialog, 20);
  await page.keyboard.press("Escape");
  await expect.poll(dialogCount, soon).toBe(0);
  await expect.poll(focusedTestId, soon).toBe("new-project");
  // Space opens it too; the name has the focus, the admin is two fields on, Enter creates.
  await page.keyboard.press("Space");
  await expect.poll(async () => (await focused())?.dialog, soon).toBe(projectDialog);
  await page.keyboard.type("Книжная полка");
  await page.keyboard.press("Tab"); // description
  await page.keyboard.press("Tab"); // the approver's handle
  await page.keyboard.type(handle);
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/project\/\d+$/, soon);
  projectId = Number(new URL(page.url()).pathname.split("/").pop());
  project = `/project/${projectId}`;
  await expect.poll(toasts, soon).toContain("Проект создан");
  const [created] = await stack.sql`select name, admin_handle from app_public.projects where id = ${projectId}`;
  expect(created).toEqual({ name: "Книжная полка", adminHandle: handle });
  const cookie = await browserCookie();
  const connected = await stack.call("POST", `/api/projects/${projectId}/channels`, { type: "telegram", link: `@${channel.username}` }, cookie);
  expect(connected.status, connected.text).toBe(201);
  await approverAnswers(stack, admin.id, "allow");
  // The page has read the project's channels already: it sees this one after a reload.
  await page.reload();
  await expect.poll(() => page.getByTestId("project-approver").count(), soon).toBe(1);
});

test("add, reorder and delete drafts: Enter in the dialogs, Space and arrows on a row's handle", async () => {
  // the sidebar's link, then "New draft" in the empty list
  await tabTo("the Drafts link", linkTo(`${project}/drafts`));
  await page.keyboard.press("Enter");
  await expect.poll(() => page.getByTestId("drafts-empty").count(), soon).toBe(1);
  await tabTo("New draft", byTestId("new-draft"));
  await page.keyboard.press("Enter");
  await expect.poll(async () => (await focused())?.testId, soon).toBe("draft-title");
  await page.keyboard.type("Зимнее чтение");
  await page.keyboard.press("Enter");
  await expect.poll(titlesOnScreen, soon).toEqual(["Зимнее чтение"]);
  // The empty list's button went with the empty list: its twin in the header has the focus.
  await expect.poll(focusedTestId, soon).toBe("new-draft");
  expect(await dialogCount()).toBe(0);

  // Two more at once, one title a line.
  await tabTo("Bulk add", byTestId("bulk-add"), { back: true });
  await page.keyboard.press("Enter");
  await expect.poll(focusedTestId, soon).toBe("bulk-titles");
  await page.keyboard.type("Классика за выходные\nСтихи о весне");
  await expect.poll(() => page.getByTestId("bulk-count").textContent(), soon).toBe("Заголовков: 2 из 30");
  await tabTo("Create", byTestId("bulk-create"));
  await page.keyboard.press("Enter");
  await expect.poll(titlesOnScreen, soon).toEqual(["Зимнее чтение", "Классика за выходные", "Стихи о весне"]);
  await expect.poll(focusedTestId, soon).toBe("bulk-add");

  // Reorder: Tab to the last row's handle; Space lifts, two arrows up, Space drops.
  await tabTo("the handle of «Стихи о весне»", (f) => f.testId === "drag-handle" && f.name.includes("Стихи о весне"));
  await expectFocusVisible("drag handle");
  await page.keyboard.press("Space");
  await expect.poll(() => page.locator("[data-dragging]").count(), soon).toBeGreaterThan(0);
  await page.waitForTimeout(200); // arrows before the lift has taken hold are lost (drafts_long)
  for (const key of ["ArrowUp", "ArrowUp", "Space"]) {
    await page.keyboard.press(key);
    await page.waitForTimeout(200);
  }
  const reordered = ["Стихи о весне", "Зимнее чтение", "Классика за выходные"];
  await expect.poll(titlesOnScreen, soon).toEqual(reordered);
  await expect.poll(async () =>
    (await stack.sql`select title from app_public.drafts where project_id = ${projectId} order by sort_order, id`).map((d) => d.title), soon)
    .toEqual(reordered);
  // The handle keeps the focus after the drop.
  expect(await focused()).toMatchObject({ testId: "drag-handle", name: "Переместить «Стихи о весне»" });

  // Delete the middle one: its confirmation starts on Cancel; Escape backs out to the trash button.
  const middle = await stack.sql`select id from app_public.drafts where project_id = ${projectId} and title = 'Зимнее чтение'`;
  const next = await stack.sql`select id from app_public.drafts where project_id = ${projectId} and title = 'Классика за выходные'`;
  await tabTo("Delete «Зимнее чтение»", (f) => f.testId === "delete-draft" && f.draftId === String(middle[0].id));
  await expectFocusVisible("delete button");
  await page.keyboard.press("Enter");
  const confirmDialog = "Удалить черновик?";
  await expect.poll(focused, soon).toMatchObject({ dialog: confirmDialog, name: "Отмена" });
  await expectFocusTrapped(confirmDialog, 4);
  await page.keyboard.press("Escape");
  await expect.poll(dialogCount, soon).toBe(0);
  await expect.poll(focused, soon).toMatchObject({ testId: "delete-draft", draftId: String(middle[0].id) });
  await page.keyboard.press("Enter");
  await expect.poll(async () => (await focused())?.dialog, soon).toBe(confirmDialog);
  await tabTo("Delete", byTestId("confirm-delete"));
  await page.keyboard.press("Enter");
  await expect.poll(titlesOnScreen, soon).toEqual(["Стихи о весне", "Классика за выходные"]);
  // The trash button went with its row: the focus is on the row that took its place.
  await expect.poll(focused, soon).toMatchObject({ testId: "drag-handle", draftId: String(next[0].id) });
  await expectFocusVisible("the next row's handle");
});

test("open a day in the calendar and schedule a post on it", async () => {
  // the sidebar's link, then the add button of tomorrow (in the next month's grid, maybe)
  await tabTo("the Schedule link", linkTo(`${project}/schedule`), { back: true });
  await page.keyboard.press("Enter");
  await expect.poll(() => page.getByTestId("schedule-calendar").count(), soon).toBe(1);
  tomorrow = toCalendarDate(now(TZ)).add({ days: 1 }).toString();
  if ((await page.locator(`[data-testid="calendar-day"][data-date="${tomorrow}"]`).count()) === 0) {
    await tabTo("Next month", byTestId("calendar-next"));
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator(`[data-testid="calendar-day"][data-date="${tomorrow}"]`).count(), soon).toBe(1);
  }
  await tabTo("tomorrow's add button", (f) => f.testId === "add-post" && f.date === tomorrow);
  // Hidden until the pointer comes (where there is one), it shows once focused.
  await expectFocusVisible("tomorrow's add button");
  expect(await page.evaluate(() => getComputedStyle(document.activeElement!).opacity)).toBe("1");
  await page.keyboard.press("Enter");
  const scheduleDialog = "Запланировать пост";
  await expect.poll(focused, soon).toMatchObject({ testId: "schedule-time", dialog: scheduleDialog });
  expect(await page.getByTestId("schedule-date").inputValue()).toBe(tomorrow);
  await expectFocusTrapped(scheduleDialog, 12);
  await page.keyboard.press("Escape");
  await expect.poll(dialogCount, soon).toBe(0);
  await expect.poll(focused, soon).toMatchObject({ testId: "add-post", date: tomorrow });
  await page.keyboard.press("Enter");
  await expect.poll(focusedTestId, soon).toBe("schedule-time");
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("12:30");
  // The draft: a native select, whose arrows pick the next option.
  await tabTo("the draft", byTestId("schedule-draft"));
  await expectFocusVisible("draft select");
  await page.keyboard.press("ArrowDown");
  await expect.poll(() => page.getByTestId("schedule-draft").locator("option:checked").textContent(), soon).toBe("Стихи о весне");
  await tabTo("Schedule", byTestId("schedule-submit"));
  await page.keyboard.press("Enter");
  await expect.poll(dialogCount, soon).toBe(0);
  await expect.poll(focused, soon).toMatchObject({ testId: "add-post", date: tomorrow });
  const [post] = await stack.sql`select id, status, to_char(scheduled_for at time zone ${TZ}, 'YYYY-MM-DD HH24:MI') as at
    from app_public.posts where project_id = ${projectId}`;
  expect({ status: post.status, at: post.at }).toEqual({ status: "draft", at: `${tomorrow} 12:30` });
  postId = post.id as number;
});

test("open the post's details and send it for approval; Edit there and back", async () => {
  const telegram = stack.telegram!;
  // the chip comes right after its day's add button; then Publish: off to the approver
  await tabTo("the post's chip", (f) => f.testId === "calendar-post" && f.date === tomorrow, { max: 3 });
  await expectFocusVisible("post chip");
  await page.keyboard.press("Enter");
  const details = page.getByTestId("post-details");
  await expect.poll(() => details.count(), soon).toBe(1);
  await expect.poll(async () => (await focused())?.dialog, soon).toBe(detailsDialog);
  await tabTo("Publish", byTestId("post-publish"));
  await expectFocusVisible("Publish");
  await page.keyboard.press("Enter");
  await expect.poll(() => details.getByTestId("post-status").getAttribute("data-status"), soon).toBe("scheduled");
  expect(await details.getByTestId("post-publish").count()).toBe(0);
  // Publish is gone: the focus stays in the dialog, on the next thing to do.
  await expect.poll(focused, soon).toMatchObject({ testId: "post-edit", dialog: detailsDialog });
  await expectFocusVisible("Edit, after publishing");
  await expectFocusTrapped(detailsDialog, 6);
  const preview = await telegram.waitFor(() => telegram.messages(admin.id).find((m) => hasButton(m, "approve", postId)), 15_000);
  expect(preview).toBeTruthy();
  await page.keyboard.press("Escape");
  await expect.poll(() => details.count(), soon).toBe(0);
  await expect.poll(focused, soon).toMatchObject({ testId: "calendar-post", date: tomorrow });
  // Edit from the details swaps them for the schedule form; closing that comes back to the chip too.
  await page.keyboard.press("Enter");
  await expect.poll(async () => (await focused())?.dialog, soon).toBe(detailsDialog);
  await tabTo("Edit", byTestId("post-edit"));
  await page.keyboard.press("Enter");
  await expect.poll(focused, soon).toMatchObject({ testId: "schedule-time", dialog: "Изменить пост" });
  expect(await page.getByTestId("schedule-time").inputValue()).toBe("12:30");
  await page.keyboard.press("Escape");
  await expect.poll(dialogCount, soon).toBe(0);
  await expect.poll(focused, soon).toMatchObject({ testId: "calendar-post", date: tomorrow });
});

test("send a message to the assistant: Enter sends, the box keeps the focus", async () => {
  stack.openai!.reply(() => REPLY);
  // its link in the sidebar, then the message box
  await tabTo("the assistant's link", linkTo(`${project}/ai-assistant`), { back: true });
  await page.keyboard.press("Enter");
  await expect.poll(() => page.getByTestId("chat-greeting").count(), soon).toBe(1);
  await tabTo("the message box", byTestId("chat-input"));
  await expectFocusVisible("message box");
  await page.keyboard.type("Какую рубрику завести?");
  await page.keyboard.press("Enter");
  const messages = page.getByTestId("chat-message");
  await expect.poll(() => messages.count(), soon).toBe(2);
  await expect.poll(() => messages.nth(1).getByTestId("chat-message-text").textContent(), soon).toBe(REPLY);
  expect(await messages.nth(0).textContent()).toContain("Какую рубрику завести?");
  expect(await focusedTestId()).toBe("chat-input");
  expect(await page.getByTestId("chat-input").inputValue()).toBe("");
});

test("the skip link leads past the navigation; a new page takes the focus on its heading; hints show on focus too", async () => {
  await stack.call("POST", `/api/projects/${projectId}/drafts`, { title: "Черновик для подсказки" }, await browserCookie());
  await page.goto(`${stack.baseUrl}${project}/drafts`);
  await expect.poll(() => page.getByTestId("draft-row").count(), soon).toBeGreaterThan(0);
  // the first Tab of a page meets the skip link, shown once it has the focus
  await page.keyboard.press("Tab");
  expect(await focusedTestId()).toBe("skip-link");
  await expectFocusVisible("skip link");
  expect(await page.getByTestId("skip-link").isVisible()).toBe(true);
  await page.keyboard.press("Enter");
  const heading = await page.locator("main h1").textContent();
  await expect.poll(focused, soon).toMatchObject({ tag: "h1", name: heading });
  // from the heading, Tab goes on into the page, not back through the sidebar
  expect(await tabTo("a draft's edit button", byTestId("edit-draft"), { max: 15 })).toBeGreaterThan(0);
  await expect.poll(() => page.getByRole("tooltip").textContent(), soon).toBe("Изменить");
  // a link of the sidebar: the new page's heading has the focus, as a screen reader expects
  await tabTo("the schedule's link", linkTo(`${project}/schedule`), { back: true });
  await page.keyboard.press("Enter");
  await expect.poll(() => page.getByTestId("calendar-day").count(), soon).toBeGreaterThan(0);
  await expect.poll(async () => (await focused())?.tag, soon).toBe("h1");
  expect((await focused())?.name).toBe(await page.locator("main h1").textContent());
  expect(heading).not.toBe((await focused())?.name);
});

test("every control Tab reached on the way showed that it had the focus", () => {
  expect(tabStops).toBeGreaterThan(50);
  expect([...unseen], [...unseen].join("; ")).toEqual([]);
});
