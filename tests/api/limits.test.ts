/*
 * Limits and privacy (docs/limits.md), as a hostile or careless account would meet them on
 * the real stack: AI calls and tokens per account, the chat's context and size, aborted
 * calls, one generation job per project, sign-in per client IP, private uploads, quotas,
 * the sessions' absolute lifetime and a scheduling race.
 */
import { AI_CALL_TOKEN_BOUND } from "../../api/routes/ai.ts";
import { afterEach, describe, expect, test } from "vitest";
import { errorMessage } from "../../contract/error_codes.ts";
import { makePng, uploadedImage } from "../helpers/images.ts";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";

const DAILY_BUDGET_SPENT = errorMessage("ai.dailyBudgetSpent");

const stacks: Stack[] = [];
async function stackWith(options: Parameters<typeof startStack>[0]) {
  const stack = await startStack(options);
  stacks.push(stack);
  return stack;
}
// each test starts its own stack (its limits are its own); closed after it, so connections stay few
afterEach(async () => {
  for (const stack of stacks.splice(0)) await stack.close();
});

async function accountWithProject(stack: Stack, name = "Limits") {
  const { cookie, user } = await stack.signIn(uniqueEmail("limits"));
  const project = (await stack.call("POST", "/api/projects", { name, adminHandle: "limits_admin" }, cookie)).json;
  return { cookie, user, projectId: project.id as number, base: `/api/projects/${project.id}` };
}

describe("AI calls per minute, per account", () => {
  test("each AI call counts; over the limit 429 ai.rateLimited with Retry-After; another account is unaffected", async () => {
    const stack = await stackWith({ openai: true, env: { AI_CALLS_PER_MINUTE: "6" } });
    const alice = await accountWithProject(stack);
    const bob = await accountWithProject(stack);
    const [draft] = (await stack.call("POST", `${alice.base}/drafts/bulk`, { titles: ["One"] }, alice.cookie)).json;
    const calls: [string, unknown][] = [
      ["/generate-title", {}],
      ["/generate-post", { title: "A bridge opens", postLength: 300 }],
      ["/generate-multiple-titles", { count: 2 }],
      ["/chat", { message: "Hello" }],
      ["/chat/stream", { message: "Hello again" }],
      ["/drafts/generate-content", { draftIds: [draft.id], postLength: 300 }],
    ];
    for (const [path, body] of calls) {
      const res = await stack.call("POST", `${alice.base}${path}`, body, alice.cookie);
      expect(res.status, `${path}: ${res.text}`).toBeLessThan(300);
    }
    const asked = stack.openai!.journal.length;
    const refused = await stack.call("POST", `${alice.base}/generate-title`, {}, alice.cookie);
    expect(refused.status).toBe(429);
    expect(refused.json).toEqual({
      code: "ai.rateLimited",
      message: "Too many AI requests from this account. Please wait a minute and try again.",
    });
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    // the streamed chat is refused the same way, before any stream starts
    const stream = await stack.call("POST", `${alice.base}/chat/stream`, { message: "More" }, alice.cookie);
    expect(stream.status).toBe(429);
    // the provider was not asked for the refused calls; the generation job may still be running
    // (on a loaded machine its post request can land now), so only title and chat requests count
    await new Promise((r) => setTimeout(r, 300));
    const fromJob = (e: { body: unknown }) => JSON.stringify(e.body).includes("Write a Telegram post titled");
    expect(stack.openai!.journal.filter((e) => e.time > Date.now() - 250 && !fromJob(e))).toHaveLength(0);
    expect(stack.openai!.journal.length).toBeGreaterThanOrEqual(asked);
    expect((await stack.call("POST", `${bob.base}/generate-title`, {}, bob.cookie)).status).toBe(200);
  });

  test("the limit holds for requests sent all at once", async () => {
    const stack = await stackWith({ openai: true, env: { AI_CALLS_PER_MINUTE: "3" } });
    const alice = await accountWithProject(stack);
    const answers = await Promise.all(Array.from({ length: 8 }, () => stack.call("POST", `${alice.base}/generate-title`, {}, alice.cookie)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(3);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(5);
  });
});

describe("AI tokens per day, per account", () => {
  test("usage the provider reports is counted (plain and streamed); once spent: 429 ai.dailyBudgetSpent until midnight UTC", async () => {
    const stack = await stackWith({ openai: true, env: { AI_DAILY_TOKENS: "100" } });
    const alice = await accountWithProject(stack);
    const bob = await accountWithProject(stack);
    // the local server reports 10 prompt tokens + a token per 4 characters of the answer
    stack.openai!.reply(() => "x".repeat(160)); // 50 tokens
    expect((await stack.call("POST", `${alice.base}/chat`, { message: "One" }, alice.cookie)).status).toBe(200);
    const streamed = await stack.app.request(`${alice.base}/chat/stream`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: alice.cookie },
      body: JSON.stringify({ message: "Two" }),
    });
    expect(await streamed.text()).toContain("event: done");
    // recorded as the answers end (the stream's usage comes with its last chunk)
    await expect.poll(async () =>
      Number((await stack.sql`select tokens from app_private.ai_tokens where user_id = ${alice.user.id}`)[0]?.tokens), { timeout: 3_000 })
      .toBe(100);

    const refused = await stack.call("POST", `${alice.base}/generate-title`, {}, alice.cookie);
    expect(refused.status).toBe(429);
    expect(refused.json.code).toBe("ai.dailyBudgetSpent");
    // the same words as a generation job's drafts get once the day is spent (one dictionary key)
    expect(refused.json.message).toBe(DAILY_BUDGET_SPENT);
    const now = new Date();
    const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    expect(Math.abs(Number(refused.headers.get("retry-after")) - (midnight - Date.now()) / 1000)).toBeLessThan(5);
    expect((await stack.call("POST", `${bob.base}/chat`, { message: "Mine" }, bob.cookie)).status).toBe(200);
  });

  test("45 calls at once cannot pass the day together: each reserves its bound first, so the day is passed by one call's at most", async () => {
    const cap = 20_000;
    const stack = await stackWith({ openai: true, env: { AI_DAILY_TOKENS: String(cap), AI_CALLS_PER_MINUTE: "1000" } });
    const alice = await accountWithProject(stack);
    // each answer costs 2,510 tokens and is slow, so all 45 are in flight together
    stack.openai!.reply(async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      return "x".repeat(10_000);
    });
    const answers = await Promise.all(Array.from({ length: 45 }, (_, i) =>
      Promise.resolve(stack.app.request(`${alice.base}/chat`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie: alice.cookie },
        body: JSON.stringify({ message: `Question ${i}` }),
      })).then(async (res) => ({ status: res.status, body: await res.text() }))));
    const spent = Number((await stack.sql`select tokens from app_private.ai_tokens where user_id = ${alice.user.id}`)[0]?.tokens ?? 0);
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThan(0);
    expect(answers.every((a) => a.status === 200 || (a.status === 429 && a.body.includes("ai.dailyBudgetSpent")))).toBe(true);
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(cap + AI_CALL_TOKEN_BOUND);
    // nothing stays reserved once the calls are over, nor after a call that failed before asking the AI
    expect((await stack.sql`select count(*)::int as n from app_private.ai_reservations`)[0].n).toBe(0);
    const bob = await accountWithProject(stack);
    expect((await stack.call("POST", `/api/projects/999999999/generate-title`, {}, bob.cookie)).status).toBe(404);
    expect((await stack.sql`select count(*)::int as n from app_private.ai_reservations`)[0].n).toBe(0);
  });

  test.each([
    ["its owner's day", "AI_DAILY_TOKENS", "ai.dailyBudgetSpent"],
    ["the service's day", "AI_DAILY_TOKENS_TOTAL", "ai.globalDailyLimit"],
  ] as const)("a generation job stops asking once %s is spent: the rest fail with the reason", async (_, variable, code) => {
    const stack = await stackWith({ openai: true, env: { [variable]: "60" } });
    const alice = await accountWithProject(stack);
    stack.openai!.reply(() => "y".repeat(200)); // 60 tokens: the first draft spends the day
    const drafts = (await stack.call("POST", `${alice.base}/drafts/bulk`, { titles: ["A", "B", "C"] }, alice.cookie)).json;
    const job = (await stack.call("POST", `${alice.base}/drafts/generate-content`, { draftIds: drafts.map((d: { id: number }) => d.id) }, alice.cookie)).json;
    await expect.poll(async () => (await stack.call("GET", `${alice.base}/jobs/${job.jobId}`, undefined, alice.cookie)).json.status, { timeout: 15_000 })
      .toBe("completed");
    const done = (await stack.call("GET", `${alice.base}/jobs/${job.jobId}`, undefined, alice.cookie)).json;
    expect(done.result.failed).toHaveLength(2);
    expect(done.result.failed[0].error).toBe(errorMessage(code));
    expect(stack.openai!.journal).toHaveLength(1);
  });
});

describe("AI tokens per day, every account together", () => {
  test("two accounts' generation jobs at once cannot pass the service's day together: the worker's posts reserve too, so one is written and the other fails with the reason", async () => {
    const stack = await stackWith({ openai: true, env: { AI_DAILY_TOKENS_TOTAL: "100" } });
    const accounts = [await accountWithProject(stack), await accountWithProject(stack)];
    // a slow answer of 300 tokens: both jobs (the worker's two AI slots) would be in flight together
    stack.openai!.reply(async () => {
      await new Promise((resolve) => setTimeout(resolve, 700));
      return "z".repeat(1_200);
    });
    const asked = await Promise.all(accounts.map(async (who) => {
      const [draft] = (await stack.call("POST", `${who.base}/drafts/bulk`, { titles: ["Spent together"] }, who.cookie)).json;
      return { who, answer: await stack.call("POST", `${who.base}/drafts/generate-content`, { draftIds: [draft.id], postLength: 300 }, who.cookie) };
    }));
    // the second is refused with the reason: at once, when the first job already holds the day
    // as it asks (the worker can be that quick), or else in its own job
    const refusedAtOnce = asked.filter(({ answer }) => answer.status !== 201);
    for (const { answer } of refusedAtOnce) expect(answer.json, answer.text).toMatchObject({ code: "ai.globalDailyLimit" });
    const results = await Promise.all(asked.filter(({ answer }) => answer.status === 201).map(async ({ who, answer }) => {
      const read = async () => (await stack.call("GET", `${who.base}/jobs/${answer.json.jobId}`, undefined, who.cookie)).json;
      await expect.poll(async () => (await read()).status, { timeout: 30_000 }).toMatch(/^(completed|failed)$/);
      return await read();
    }));
    expect(stack.openai!.journal).toHaveLength(1);
    expect(results.filter((r) => r.status === "completed")).toHaveLength(1);
    const failedJobs = results.filter((r) => r.status === "failed");
    expect(failedJobs.length + refusedAtOnce.length).toBe(1);
    for (const job of failedJobs) expect(job.result.failed[0].error).toBe(errorMessage("ai.globalDailyLimit"));
    expect((await stack.sql`select count(*)::int as n from app_private.ai_reservations`)[0].n).toBe(0);
  });

  test("two accounts spend the service's day between them: every AI call of anyone, a new sign-up too, is 429 ai.globalDailyLimit and changes nothing", async () => {
    const stack = await stackWith({ openai: true, env: { AI_DAILY_TOKENS_TOTAL: "100" } });
    const alice = await accountWithProject(stack);
    const bob = await accountWithProject(stack);
    stack.openai!.reply(() => "x".repeat(160)); // 50 tokens a call: each account alone stays far below its own 300,000
    expect((await stack.call("POST", `${alice.base}/chat`, { message: "One" }, alice.cookie)).status).toBe(200);
    expect((await stack.call("POST", `${bob.base}/chat`, { message: "Two" }, bob.cookie)).status).toBe(200);
    await expect.poll(async () =>
      Number((await stack.sql`select tokens from app_private.ai_tokens_total where day = app_private.utc_today()`)[0]?.tokens), { timeout: 3_000 })
      .toBe(100);

    // a fresh sign-up gets no fresh budget
    const carol = await accountWithProject(stack);
    const [draft] = (await stack.call("POST", `${carol.base}/drafts/bulk`, { titles: ["Untouched"] }, carol.cookie)).json;
    const before = {
      asked: stack.openai!.journal.length,
      drafts: await stack.sql`select id, content, entities from app_public.drafts order by id`,
      jobs: await stack.sql`select id from app_public.generation_jobs`,
      chat: await stack.sql`select id from app_public.chat_messages`,
    };
    const now = new Date();
    const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    const calls: [typeof alice, string, unknown][] = [
      [alice, "/generate-title", {}],
      [bob, "/generate-post", { title: "A bridge opens", postLength: 300 }],
      [carol, "/generate-multiple-titles", { count: 2 }],
      [carol, "/chat", { message: "Hello" }],
      [bob, "/chat/stream", { message: "Hello again" }],
      [carol, "/drafts/generate-content", { draftIds: [draft.id], postLength: 300 }],
    ];
    for (const [who, path, body] of calls) {
      const refused = await stack.call("POST", `${who.base}${path}`, body, who.cookie);
      expect(refused.status, path).toBe(429);
      expect(refused.json, path).toEqual({
        code: "ai.globalDailyLimit",
        message: "The AI has reached this service's daily limit for all accounts. It renews at midnight UTC.",
      });
      expect(Math.abs(Number(refused.headers.get("retry-after")) - (midnight - Date.now()) / 1000), path).toBeLessThan(5);
    }
    // nothing was asked of the provider and nothing changed: no draft, no job, no chat message
    expect(stack.openai!.journal.length).toBe(before.asked);
    expect(await stack.sql`select id, content, entities from app_public.drafts order by id`).toEqual(before.drafts);
    expect(await stack.sql`select id from app_public.generation_jobs`).toEqual(before.jobs);
    expect(await stack.sql`select id from app_public.chat_messages`).toEqual(before.chat);
  });
});

describe("the chat's input", () => {
  test("the context is the stored conversation, capped with the whole prompt; the client's history is ignored", async () => {
    const stack = await stackWith({ openai: true });
    const alice = await accountWithProject(stack);
    // ten long stored messages: together far over the prompt cap
    await stack.sql`insert into app_public.chat_messages (project_id, user_id, role, content)
      select ${alice.projectId}, ${alice.user.id}, case when i % 2 = 1 then 'user' else 'assistant' end, left(repeat(i::text, 15000), 15000)
      from generate_series(1, 10) as i`;
    const huge = Array.from({ length: 12 }, () => ({ role: "user", content: "h".repeat(20_000) }));
    const res = await stack.call("POST", `${alice.base}/chat`, { message: "The question", history: huge }, alice.cookie);
    expect(res.status, res.text).toBe(200);
    const sent = stack.openai!.journal.at(-1)!.body.messages;
    const size = sent.reduce((sum, m) => sum + m.content.length, 0);
    expect(size).toBeLessThanOrEqual(48_000);
    expect(sent.at(-1)!.content).toBe("The question");
    expect(JSON.stringify(sent)).not.toContain("hhhh");
    // the newest stored messages are the ones kept
    expect(sent.at(-2)!.content.startsWith("10")).toBe(true);
  });

  test("a browser that goes away aborts the provider call: the request ends at once, and nothing is stored", async () => {
    const stack = await stackWith({ openai: true, serve: true });
    const alice = await accountWithProject(stack);
    stack.openai!.setDelay(5_000);
    const controller = new AbortController();
    const request = fetch(`${stack.baseUrl}${alice.base}/chat`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: alice.cookie },
      body: JSON.stringify({ message: "Slow question" }),
      signal: controller.signal,
    }).catch(() => undefined);
    await expect.poll(() => stack.openai!.journal.length, { timeout: 5_000 }).toBe(1);
    const abortedAt = Date.now();
    controller.abort();
    await request;
    // the provider takes 5 s to answer; the API stopped waiting for it when the browser left
    await expect.poll(() => stack.answered.find((r) => r.path.endsWith("/chat"))?.status, { timeout: 2_000 }).toBe(499);
    expect(Date.now() - abortedAt).toBeLessThan(2_500);
    expect(await stack.sql`select 1 from app_public.chat_messages where project_id = ${alice.projectId}`).toHaveLength(0);
    stack.openai!.setDelay(0);
  });

  test("one running generation job per project: a second answers 409 with the running job's id", async () => {
    const stack = await stackWith({ openai: true });
    const alice = await accountWithProject(stack);
    stack.openai!.setDelay(1_500);
    const drafts = (await stack.call("POST", `${alice.base}/drafts/bulk`, { titles: ["A", "B"] }, alice.cookie)).json;
    const ids = drafts.map((d: { id: number }) => d.id);
    const first = await stack.call("POST", `${alice.base}/drafts/generate-content`, { draftIds: ids }, alice.cookie);
    expect(first.status).toBe(201);
    const second = await stack.call("POST", `${alice.base}/drafts/generate-content`, { draftIds: ids }, alice.cookie);
    expect(second.status).toBe(409);
    expect(second.json).toMatchObject({ code: "drafts.generationRunning", jobId: first.json.jobId });
    // another project of the same account is not blocked
    const other = await accountWithProject(stack);
    const [draft] = (await stack.call("POST", `${other.base}/drafts/bulk`, { titles: ["C"] }, other.cookie)).json;
    expect((await stack.call("POST", `${other.base}/drafts/generate-content`, { draftIds: [draft.id] }, other.cookie)).status).toBe(201);
    // once it has finished, a new one may start
    await expect.poll(async () => (await stack.call("GET", `${alice.base}/jobs/${first.json.jobId}`, undefined, alice.cookie)).json.status, { timeout: 15_000 })
      .toBe("completed");
    expect((await stack.call("POST", `${alice.base}/drafts/generate-content`, { draftIds: ids }, alice.cookie)).status).toBe(201);
    stack.openai!.setDelay(0);
  });
});

describe("sign-in per client IP", () => {
  // the connection comes from our proxy (TRUST_PROXY below), which appended the client's address
  const PROXY = { remoteAddr: { hostname: "10.0.0.2" } };
  const request = (stack: Stack, email: string, ip?: string) =>
    stack.app.request("/api/auth/request-otp", {
      method: "POST",
      headers: { "content-type": "application/json", ...(ip ? { "x-forwarded-for": `192.0.2.99, ${ip}` } : {}) },
      body: JSON.stringify({ email }),
    }, PROXY);
  const check = (stack: Stack, email: string, ip: string) =>
    stack.app.request("/api/auth/verify-otp", {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": ip },
      body: JSON.stringify({ email, code: "000000" }),
    }, PROXY);

  test("code requests over many addresses from one IP: 429 with Retry-After past the limit; another IP goes on", async () => {
    const stack = await stackWith({ env: { TRUST_PROXY: "10.0.0.0/8", SIGN_IN_REQUESTS_PER_IP: "3", SIGN_IN_CHECKS_PER_IP: "2" } });
    for (let i = 0; i < 3; i++) expect((await request(stack, uniqueEmail("spray"), "203.0.113.7")).status).toBe(200);
    const refused = await request(stack, uniqueEmail("spray"), "203.0.113.7");
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(500);
    expect(wait).toBeLessThanOrEqual(600);
    expect((await refused.json()).message).toMatch(/Too many sign-in attempts from this network/);
    expect((await request(stack, uniqueEmail("other"), "198.51.100.4")).status).toBe(200);
    // only the address our proxy saw counts: a client cannot pick another by claiming it first
    expect((await request(stack, uniqueEmail("spray"), "203.0.113.7")).status).toBe(429);

    // code checks have their own count
    expect((await check(stack, "a@example.com", "192.0.2.1")).status).toBe(400);
    expect((await check(stack, "b@example.com", "192.0.2.1")).status).toBe(400);
    const tooMany = await check(stack, "c@example.com", "192.0.2.1");
    expect(tooMany.status).toBe(429);
    expect(tooMany.headers.get("retry-after")).toMatch(/^\d+$/);
  });

  test("without TRUST_PROXY, X-Forwarded-For is not believed", async () => {
    const stack = await stackWith({ env: { SIGN_IN_REQUESTS_PER_IP: "2" } });
    expect((await request(stack, uniqueEmail("a"), "203.0.113.1")).status).toBe(200);
    expect((await request(stack, uniqueEmail("b"), "203.0.113.2")).status).toBe(200);
    expect((await request(stack, uniqueEmail("c"), "203.0.113.3")).status).toBe(429);
  });
});

describe("uploads are private", () => {
  test("served only to the owning account; anyone else, signed out included, gets 404", async () => {
    const stack = await stackWith({});
    const alice = await accountWithProject(stack);
    const bob = await accountWithProject(stack);
    const url = await uploadedImage(stack, alice.projectId, alice.cookie);
    expect((await stack.app.request(url, { headers: { cookie: alice.cookie } })).status).toBe(200);
    const stranger = await stack.app.request(url, { headers: { cookie: bob.cookie } });
    expect(stranger.status).toBe(404);
    expect(await stranger.json()).toEqual({ message: "Not found", code: "notFound" });
    expect((await stack.app.request(url)).status).toBe(404);
  });

  test("a draft may show only an upload of its own project; external images are refused", async () => {
    const stack = await stackWith({});
    const alice = await accountWithProject(stack);
    const bob = await accountWithProject(stack);
    const bobsImage = await uploadedImage(stack, bob.projectId, bob.cookie);
    const stolen = await stack.call("POST", `${alice.base}/drafts`, { title: "Stolen", imageUrl: bobsImage }, alice.cookie);
    expect(stolen.status).toBe(400);
    expect(stolen.json.code).toBe("uploads.notInProject");
    const [draft] = (await stack.call("POST", `${alice.base}/drafts/bulk`, { titles: ["Mine"] }, alice.cookie)).json;
    expect((await stack.call("PATCH", `${alice.base}/drafts/${draft.id}`, { imageUrl: bobsImage }, alice.cookie)).status).toBe(400);
    // not even from another project of the same account
    const second = (await stack.call("POST", "/api/projects", { name: "Second", adminHandle: "limits_admin" }, alice.cookie)).json;
    const elsewhere = await uploadedImage(stack, second.id, alice.cookie);
    expect((await stack.call("PATCH", `${alice.base}/drafts/${draft.id}`, { imageUrl: elsewhere }, alice.cookie)).json.code).toBe("uploads.notInProject");
    const external = await stack.call("PATCH", `${alice.base}/drafts/${draft.id}`, { imageUrl: "https://example.com/cat.png" }, alice.cookie);
    expect(external.status).toBe(400);
    expect(external.json.message).toBe("drafts.invalidImageType");
    expect((await stack.call("GET", `${alice.base}/drafts`, undefined, alice.cookie)).json.find((d: { id: number }) => d.id === draft.id).imageUrl).toBeNull();
  });

  test("a bug report's screenshot is served to its reporter and to admins only", async () => {
    const stack = await stackWith({ env: { ADMIN_EMAILS: "boss@example.com" } });
    const reporter = await accountWithProject(stack);
    const other = await accountWithProject(stack);
    const admin = await stack.signIn("boss@example.com");
    const form = new FormData();
    form.append("description", "The button does nothing");
    form.append("screenshot", new File([makePng(40, 30)], "shot.png", { type: "image/png" }));
    const sent = await stack.app.request("/api/bug-reports", { method: "POST", body: form, headers: { cookie: reporter.cookie } });
    expect(sent.status).toBe(201);
    const [{ screenshotUrl }] = await stack.sql`select screenshot_url from app_public.bug_reports`;
    expect((await stack.app.request(screenshotUrl, { headers: { cookie: reporter.cookie } })).status).toBe(200);
    expect((await stack.app.request(screenshotUrl, { headers: { cookie: admin.cookie } })).status).toBe(200);
    expect((await stack.app.request(screenshotUrl, { headers: { cookie: other.cookie } })).status).toBe(404);
  });

  test("deleting a project makes its URLs 404 at once and deletes its files", async () => {
    const stack = await stackWith({});
    const alice = await accountWithProject(stack);
    const url = await uploadedImage(stack, alice.projectId, alice.cookie);
    await stack.call("POST", `${alice.base}/drafts`, { title: "With image", imageUrl: url }, alice.cookie);
    const file = `${stack.uploadsDir}/${url.split("/").pop()}`;
    await Deno.stat(file);
    expect((await stack.call("DELETE", `/api/projects/${alice.projectId}`, undefined, alice.cookie)).status).toBe(200);
    expect((await stack.app.request(url, { headers: { cookie: alice.cookie } })).status).toBe(404);
    await expect.poll(async () => await Deno.stat(file).then(() => true, () => false), { timeout: 10_000 }).toBe(false);
  });
});

describe("quotas per account", () => {
  test("projects, drafts, stored image bytes and bug reports per day each answer a clear 4xx and store nothing", async () => {
    const image = makePng(300, 300, [10, 200, 30]);
    const stack = await stackWith({
      // room for one such image, not two
      env: { PROJECTS_PER_ACCOUNT: "2", DRAFTS_PER_PROJECT: "3", UPLOAD_BYTES_PER_ACCOUNT: String(Math.floor(image.length * 1.5)), BUG_REPORTS_PER_DAY: "1" },
    });
    const alice = await accountWithProject(stack);
    expect((await stack.call("POST", "/api/projects", { name: "Two", adminHandle: "limits_admin" }, alice.cookie)).status).toBe(201);
    const third = await stack.call("POST", "/api/projects", { name: "Three", adminHandle: "limits_admin" }, alice.cookie);
    expect(third.status).toBe(409);
    expect(third.json).toEqual({ code: "projects.quotaReached", message: "An account can have at most 2 projects. Delete one you no longer need.", params: { max: 2 } });
    expect((await stack.call("GET", "/api/projects", undefined, alice.cookie)).json).toHaveLength(2);

    expect((await stack.call("POST", `${alice.base}/drafts/bulk`, { titles: ["A", "B"] }, alice.cookie)).status).toBe(201);
    const bulk = await stack.call("POST", `${alice.base}/drafts/bulk`, { titles: ["C", "D"] }, alice.cookie);
    expect(bulk.status).toBe(409);
    expect(bulk.json.code).toBe("drafts.quotaReached");
    expect((await stack.call("POST", `${alice.base}/drafts`, { title: "C" }, alice.cookie)).status).toBe(201);
    expect((await stack.call("POST", `${alice.base}/drafts`, { title: "D" }, alice.cookie)).json.code).toBe("drafts.quotaReached");
    expect((await stack.call("GET", `${alice.base}/drafts`, undefined, alice.cookie)).json).toHaveLength(3);

    const before = [...Deno.readDirSync(stack.uploadsDir)].length;
    const form = () => {
      const f = new FormData();
      f.append("image", new File([image], "big.png", { type: "image/png" }));
      return f;
    };
    const first = await stack.app.request(`${alice.base}/upload-image`, { method: "POST", body: form(), headers: { cookie: alice.cookie } });
    expect(first.status).toBe(201);
    const over = await stack.app.request(`${alice.base}/upload-image`, { method: "POST", body: form(), headers: { cookie: alice.cookie } });
    expect(over.status).toBe(409);
    expect((await over.json()).code).toBe("uploads.quotaReached");
    expect([...Deno.readDirSync(stack.uploadsDir)].length).toBe(before + 1);

    const report = () => {
      const f = new FormData();
      f.append("description", "Something broke");
      return stack.app.request("/api/bug-reports", { method: "POST", body: f, headers: { cookie: alice.cookie } });
    };
    expect((await report()).status).toBe(201);
    const tooMany = await report();
    expect(tooMany.status).toBe(429);
    expect((await tooMany.json()).code).toBe("bugReports.quotaReached");
    expect(Number(tooMany.headers.get("retry-after"))).toBeGreaterThan(86_000);
  });
});

describe("sessions and races", () => {
  test("a session ends 90 days after sign-in however often it is used", async () => {
    const stack = await stackWith({});
    const { cookie, user } = await stack.signIn(uniqueEmail("old"));
    await stack.sql`update app_private.sessions set created_at = now() - interval '89 days 23 hours', expires_at = now() + interval '1 day'
                    where user_id = ${user.id}`;
    expect((await stack.call("GET", "/api/auth/user", undefined, cookie)).status).toBe(200);
    // the use slid the expiry, but not past 90 days from sign-in
    const [session] = await stack.sql`select expires_at - created_at as lifetime from app_private.sessions where user_id = ${user.id}`;
    expect(session.lifetime).toBe("90 days");
  });

  test("two schedules of the same draft at once create one post", async () => {
    const stack = await stackWith({});
    const alice = await accountWithProject(stack);
    await stack.sql`insert into app_public.channels (project_id, type, link, status, chat_id, approver_user_id, approver_handle)
                    values (${alice.projectId}, 'telegram', '@race_chan', 'connected', -100555, 42, 'limits_admin')`;
    const [draft] = (await stack.call("POST", `${alice.base}/drafts/bulk`, { titles: ["Once"] }, alice.cookie)).json;
    const at = new Date(Date.now() + 86_400_000).toISOString();
    const answers = await Promise.all(Array.from({ length: 4 }, () =>
      stack.call("POST", `${alice.base}/posts`, { draftId: draft.id, scheduledFor: at }, alice.cookie)
    ));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
    for (const refused of answers.filter((r) => r.status !== 201)) {
      expect(refused.status).toBe(400);
      expect(refused.json.code).toBe("schedule.draftAlreadyScheduled");
    }
    expect((await stack.call("GET", `${alice.base}/posts`, undefined, alice.cookie)).json).toHaveLength(1);
  });
});
