/*
 * AI calls against a real OpenAI-compatible HTTP server (tests/doubles/openai) through the
 * official openai SDK: what reaches the prompt, what we answer, and failures.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { promptOf } from "../doubles/openai/server.ts";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";
import { assistantReply } from "../../web/src/lib/assistantReply.ts";

let stack: Stack;
let cookie: string;
let base: string;
beforeAll(async () => {
  // this file makes many AI calls with one account; the per-account limits have their own tests
  stack = await startStack({ openai: true, env: { AI_CALLS_PER_MINUTE: "1000" } });
  cookie = (await stack.signIn(uniqueEmail("writer"))).cookie;
  const project = (await stack.call("POST", "/api/projects", {
    name: "Городской вестник",
    description: "Новости нашего города",
    adminHandle: "city_admin",
    writingStyle: { formality: 4, seriousness: 0, emojiUsage: 2 },
    sources: "https://city.example/news",
  }, cookie)).json;
  base = `/api/projects/${project.id}`;
});
afterAll(() => stack.close());
beforeEach(() => stack.openai!.reset());

const lastRequest = () => stack.openai!.journal[stack.openai!.journal.length - 1].body;

describe("generate-title and generate-post", () => {
  test("the project's style, language, description and sources reach the prompt", async () => {
    stack.openai!.reply(() => "«Мост через реку откроют в мае»");
    const res = await stack.call("POST", `${base}/generate-title`, {}, cookie);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ title: "Мост через реку откроют в мае" });
    const { system } = promptOf(lastRequest());
    expect(system).toContain("Городской вестник");
    expect(system).toContain("Новости нашего города");
    expect(system).toContain("https://city.example/news");
    expect(system).toContain("formality 4/4");
    expect(system).toContain("seriousness 0/4");
    expect(system).toContain("emoji usage 2/2");
    expect(system).toContain("Always write in Russian");
    expect(lastRequest().model).toBe(stack.openai!.model);
  });

  test("generate-post asks for the requested length in the project's language, whatever `language` says", async () => {
    stack.openai!.reply(() => "Текст поста про мост.");
    const res = await stack.call("POST", `${base}/generate-post`, { title: "Мост", postLength: 800, language: "en" }, cookie);
    expect(res.json).toEqual({ content: "Текст поста про мост.", entities: [] });
    const { system, user } = promptOf(lastRequest());
    expect(user).toContain('"Мост"');
    expect(user).toContain("about 800 characters");
    expect(system).toContain("Always write in Russian");
    // length outside 100–4000 is clamped; default 1500
    await stack.call("POST", `${base}/generate-post`, { title: "Мост", postLength: 99999 }, cookie);
    expect(promptOf(lastRequest()).user).toContain("about 4000 characters");
    await stack.call("POST", `${base}/generate-post`, { title: "Мост" }, cookie);
    expect(promptOf(lastRequest()).user).toContain("about 1500 characters");
  });

  test("generate-post needs a title (drafts.titleRequired)", async () => {
    const before = stack.openai!.journal.length;
    const res = await stack.call("POST", `${base}/generate-post`, { title: "  " }, cookie);
    expect(res.status).toBe(400);
    expect(res.json.message).toBe("drafts.titleRequired");
    expect(stack.openai!.journal.length).toBe(before);
  });

  test("a post never exceeds Telegram's 4096 characters", async () => {
    stack.openai!.reply(() => "Предложение номер один. ".repeat(400));
    const res = await stack.call("POST", `${base}/generate-post`, { title: "Длинный", postLength: 4000 }, cookie);
    expect(res.json.content.length).toBeLessThanOrEqual(4096);
    expect(res.json.content.endsWith(".")).toBe(true);
  });

  test("a 429 from the provider is retried and then succeeds", async () => {
    stack.openai!.failNext(429, 1, "Rate limit reached");
    stack.openai!.reply(() => "После паузы");
    const before = stack.openai!.journal.length;
    const res = await stack.call("POST", `${base}/generate-title`, {}, cookie);
    expect(res.json).toEqual({ title: "После паузы" });
    expect(stack.openai!.journal.slice(before).map((e) => e.status)).toEqual([429, 200]);
  });

  test("a provider that keeps failing gives a clear 5xx JSON answer", async () => {
    stack.openai!.failNext(500, 10);
    const res = await stack.call("POST", `${base}/generate-title`, {}, cookie);
    expect(res.status).toBe(502);
    expect(res.json).toEqual({ code: "ai.unavailable", message: "The AI provider had an error. Please try again." });
  });
});

describe("generate-multiple-titles", () => {
  test("answers exactly `count` distinct titles, asking again when the model gives fewer", async () => {
    let call = 0;
    stack.openai!.reply((r) => {
      call += 1;
      const wanted = Number(promptOf(r).user.match(/exactly (\d+)/)![1]);
      // first answer: numbered, with a duplicate and a blank line, two short
      if (call === 1) return ["1. Первый", "2. «Второй»", "", "- Первый", ...Array.from({ length: wanted - 4 }, (_, i) => `Тема ${i}`)].join("\n");
      return Array.from({ length: wanted }, (_, i) => `Ещё ${i}`).join("\n");
    });
    const res = await stack.call("POST", `${base}/generate-multiple-titles`, { count: 7 }, cookie);
    expect(res.status).toBe(200);
    expect(res.json.titles).toHaveLength(7);
    expect(new Set(res.json.titles).size).toBe(7);
    expect(res.json.titles.slice(0, 2)).toEqual(["Первый", "Второй"]);
    expect(res.json.titles.every((t: string) => t.trim() !== "")).toBe(true);
  });

  test("count is clamped to 1–30, default 20", async () => {
    stack.openai!.reply((r) => Array.from({ length: Number(promptOf(r).user.match(/exactly (\d+)/)![1]) }, (_, i) => `T${i}-${Math.random()}`).join("\n"));
    expect((await stack.call("POST", `${base}/generate-multiple-titles`, { count: 100 }, cookie)).json.titles).toHaveLength(30);
    expect((await stack.call("POST", `${base}/generate-multiple-titles`, { count: 0 }, cookie)).json.titles).toHaveLength(1);
    expect((await stack.call("POST", `${base}/generate-multiple-titles`, {}, cookie)).json.titles).toHaveLength(20);
  });
});

describe("generate-content jobs", () => {
  async function drafts(n: number, prefix: string) {
    const res = await stack.call("POST", `${base}/drafts/bulk`, { titles: Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`) }, cookie);
    return res.json as { id: number; title: string }[];
  }
  async function waitForJob(jobId: number) {
    let job;
    const deadline = Date.now() + 30_000;
    do {
      await new Promise((r) => setTimeout(r, 100));
      job = (await stack.call("GET", `${base}/jobs/${jobId}`, undefined, cookie)).json;
    } while (!["completed", "failed"].includes(job.status) && Date.now() < deadline);
    return job;
  }

  test("selection limits: none (drafts.noSelectedDrafts), over 30 (drafts.tooManyDraftsSelected)", async () => {
    expect((await stack.call("POST", `${base}/drafts/generate-content`, { draftIds: [] }, cookie)).json.message).toBe("drafts.noSelectedDrafts");
    const ids = Array.from({ length: 31 }, (_, i) => i + 1);
    expect((await stack.call("POST", `${base}/drafts/generate-content`, { draftIds: ids }, cookie)).json.message).toBe("drafts.tooManyDraftsSelected");
  });

  test("a job of 30 drafts fills every draft and its progress reaches 30/30", async () => {
    stack.openai!.reply((r) => `Текст для: ${promptOf(r).user.match(/titled "(.*)"/)![1]}`);
    const made = await drafts(30, "Пакет");
    const started = await stack.call("POST", `${base}/drafts/generate-content`, { draftIds: made.map((d) => d.id) }, cookie);
    expect(started.status).toBe(201);
    expect(started.json).toMatchObject({ status: "pending", result: { progress: { completed: 0, total: 30 } } });
    const job = await waitForJob(started.json.jobId);
    expect(job).toMatchObject({ status: "completed", result: { progress: { completed: 30, total: 30 }, failed: [] } });
    const list = (await stack.call("GET", `${base}/drafts`, undefined, cookie)).json as { id: number; title: string; content: string }[];
    for (const d of made) expect(list.find((x) => x.id === d.id)!.content).toBe(`Текст для: ${d.title}`);
  });

  test("the provider failing on one draft of three: completed, that draft reported failed, the others filled", async () => {
    const made = await drafts(3, "Тройка");
    stack.openai!.reply((r) => promptOf(r).user.includes('"Тройка 2"') ? { status: 500 } : "Готово");
    const started = await stack.call("POST", `${base}/drafts/generate-content`, { draftIds: made.map((d) => d.id) }, cookie);
    const job = await waitForJob(started.json.jobId);
    expect(job.status).toBe("completed");
    expect(job.result.progress).toEqual({ completed: 3, total: 3 });
    expect(job.result.failed).toEqual([{ draftId: made[1].id, error: "The AI provider had an error. Please try again.", code: "ai.unavailable" }]);
    const list = (await stack.call("GET", `${base}/drafts`, undefined, cookie)).json as { id: number; content: string }[];
    expect(list.find((x) => x.id === made[0].id)!.content).toBe("Готово");
    expect(list.find((x) => x.id === made[1].id)!.content).toBe("");
  });

  test("every draft failing fails the job with the reason", async () => {
    const made = await drafts(2, "Провал");
    stack.openai!.reply(() => ({ status: 500 }));
    const started = await stack.call("POST", `${base}/drafts/generate-content`, { draftIds: made.map((d) => d.id) }, cookie);
    const job = await waitForJob(started.json.jobId);
    expect(job.status).toBe("failed");
    expect(job.error).toBe("The AI provider had an error. Please try again.");
    expect(job.errorCode).toBe("ai.unavailable");
  });

  test("another user's job and drafts are not found", async () => {
    const { cookie: other } = await stack.signIn(uniqueEmail("other"));
    const made = await drafts(1, "Чужой");
    const started = await stack.call("POST", `${base}/drafts/generate-content`, { draftIds: made.map((d) => d.id) }, cookie);
    expect((await stack.call("GET", `${base}/jobs/${started.json.jobId}`, undefined, other)).status).toBe(404);
    const otherProject = (await stack.call("POST", "/api/projects", { name: "O", adminHandle: "other_admin" }, other)).json;
    const foreign = await stack.call("POST", `/api/projects/${otherProject.id}/drafts/generate-content`, { draftIds: made.map((d) => d.id) }, other);
    expect(foreign.status).toBe(404);
  });
});

describe("assistant chat", () => {
  test("a message is answered and both are stored; history pages newest first with hasMore/nextPage", async () => {
    stack.openai!.reply((r) => `Ответ на «${promptOf(r).user}»`);
    const project = (await stack.call("POST", "/api/projects", { name: "Chat", adminHandle: "chat_admin" }, cookie)).json;
    const chatBase = `/api/projects/${project.id}`;
    for (let i = 1; i <= 3; i++) {
      const res = await stack.call("POST", `${chatBase}/chat`, {
        message: `Вопрос ${i}`, mode: "editor", currentContent: "Черновик поста", history: [{ role: "user", content: "раньше" }],
      }, cookie);
      expect(res.status).toBe(200);
      expect(res.json.message).toBe(`Ответ на «Вопрос ${i}»`);
      expect(typeof res.json.id).toBe("number");
    }
    const sent = lastRequest();
    expect(promptOf(sent).system).toContain("Edit the author's current draft");
    expect(promptOf(sent).system).toContain("Черновик поста");
    // the context is the stored conversation; the history the client sent is not used
    expect(sent.messages.map((m) => m.content)).toEqual([
      sent.messages[0].content, "Вопрос 1", "Ответ на «Вопрос 1»", "Вопрос 2", "Ответ на «Вопрос 2»", "Вопрос 3",
    ]);
    expect(JSON.stringify(sent.messages)).not.toContain("раньше");

    const page1 = (await stack.call("GET", `${chatBase}/chat/history?page=1&limit=5`, undefined, cookie)).json;
    expect(page1.messages.map((m: { content: string }) => m.content)).toEqual([
      "Ответ на «Вопрос 1»", "Вопрос 2", "Ответ на «Вопрос 2»", "Вопрос 3", "Ответ на «Вопрос 3»",
    ]);
    expect(page1).toMatchObject({ hasMore: true, nextPage: 2 });
    const page2 = (await stack.call("GET", `${chatBase}/chat/history?page=2&limit=5`, undefined, cookie)).json;
    expect(page2).toEqual({ messages: [expect.objectContaining({ role: "user", content: "Вопрос 1" })], hasMore: false, nextPage: null });
  });

  test("the streamed chat sends the answer in pieces and stores it", async () => {
    stack.openai!.reply(() => "Потоковый ответ, который приходит кусочками.");
    const res = await stack.app.request(`${base}/chat/stream`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ message: "Расскажи", mode: "general" }),
    });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const text = await res.text();
    const deltas = [...text.matchAll(/event: delta\ndata: (.*)\n/g)].map((m) => JSON.parse(m[1]).text);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe("Потоковый ответ, который приходит кусочками.");
    const done = JSON.parse(text.match(/event: done\ndata: (.*)\n/)![1]);
    expect(done.message).toBe("Потоковый ответ, который приходит кусочками.");
  });

  test("a failed reply stores nothing, so a retry does not store the question twice", async () => {
    const project = (await stack.call("POST", "/api/projects", { name: "Retry", adminHandle: "retry_admin" }, cookie)).json;
    stack.openai!.failNext(500, 10);
    const failed = await stack.call("POST", `/api/projects/${project.id}/chat`, { message: "Вопрос" }, cookie);
    expect(failed.status).toBe(502);
    stack.openai!.reset();
    const ok = await stack.call("POST", `/api/projects/${project.id}/chat`, { message: "Вопрос" }, cookie);
    expect(ok.status).toBe(200);
    const history = (await stack.call("GET", `/api/projects/${project.id}/chat/history?page=1&limit=5`, undefined, cookie)).json;
    expect(history.messages.map((m: { role: string; content: string }) => `${m.role}:${m.content}`)).toEqual(["user:Вопрос", `assistant:${ok.json.message}`]);
  });

  test("the reply is Telegram Markdown, stored as written; as the app converts it, it saves as a formatted draft", async () => {
    const markdown = "### **Идея 1:** обзор 📚\nЧитайте [отзыв](https://city.example/review_1) и _делитесь_.\n- раз\n- два";
    stack.openai!.reply(() => markdown);
    const res = await stack.call("POST", `${base}/chat`, { message: "Идея поста?", mode: "general" }, cookie);
    expect(res.json.message).toBe(markdown);
    const { system } = promptOf(lastRequest());
    expect(system).toContain("Format your text with Markdown the way Telegram channels read");
    expect(system).toContain("**bold**");
    expect(system).toContain("[link text](https://…)");
    expect(system).not.toContain("no Markdown");
    const history = (await stack.call("GET", `${base}/chat/history?page=1&limit=1`, undefined, cookie)).json;
    expect(history.messages[0].content).toBe(markdown);

    // "save as draft": the web app's conversion, which the API accepts as it is (a bold
    // heading holding bold words was bold inside bold, which the API refuses)
    const reply = assistantReply(res.json.message);
    expect(reply.text).toBe("Идея 1: обзор 📚\nЧитайте отзыв и делитесь.\n• раз\n• два");
    const draft = await stack.call("POST", `${base}/drafts`, { title: "Идея 1", content: reply.text, entities: reply.entities }, cookie);
    expect(draft.status).toBe(201);
    expect(draft.json.content).toBe(reply.text);
    expect(draft.json.entities).toEqual([
      { type: "bold", offset: 0, length: 16 },
      { type: "text_link", offset: 25, length: 5, url: "https://city.example/review_1" },
      { type: "italic", offset: 33, length: 8 },
    ]);
  });

  test("a blank message is refused; bad history pages are 400", async () => {
    expect((await stack.call("POST", `${base}/chat`, { message: "   " }, cookie)).json.message).toBe("chat.emptyMessage");
    expect((await stack.call("GET", `${base}/chat/history?page=0`, undefined, cookie)).status).toBe(400);
  });
});

test("without AI configuration every AI call answers 503 saying how to configure it", async () => {
  const bare = await startStack();
  try {
    const { cookie: c } = await bare.signIn(uniqueEmail("noai"));
    const pid = (await bare.call("POST", "/api/projects", { name: "No AI", adminHandle: "noai_admin" }, c)).json.id;
    const draft = (await bare.call("POST", `/api/projects/${pid}/drafts`, { title: "d" }, c)).json;
    const calls: [string, unknown][] = [
      ["generate-title", {}],
      ["generate-post", { title: "x" }],
      ["generate-multiple-titles", { count: 3 }],
      ["drafts/generate-content", { draftIds: [draft.id] }],
      ["chat", { message: "hi" }],
    ];
    for (const [path, payload] of calls) {
      const res = await bare.call("POST", `/api/projects/${pid}/${path}`, payload, c);
      expect(res.status, path).toBe(503);
      expect(res.json.code).toBe("ai.notConfigured");
      expect(res.json.message).toMatch(/OPENAI_API_KEY/);
    }
  } finally {
    await bare.close();
  }
});
