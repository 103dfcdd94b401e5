/*
 * Webhooks (docs/api.md "Webhooks", shared/DESIGN.md): a project's endpoints get its events,
 * signed as Standard Webhooks says (checked here with its reference library, not our code), a
 * post's events in the order they happened (a later one waits without spending a try, and
 * goes once the earlier one is delivered or has failed), retried under the same webhook-id
 * after a failure on graphile-worker's schedule, redelivered on request; never to a private
 * address or through a redirect; a receiver that hangs holds back no one else's deliveries.
 * The delivery task is tasks/webhooks__deliver.ts; every event type: webhook_events.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { checkTarget, refuseTarget } from "../../core/public_address.ts";
import { cleanupSessions } from "../../tasks/sessions__cleanup.ts";
import { deliverWebhook } from "../../tasks/webhooks__deliver.ts";
import { buttonData, postReaches, projectWithChannel, sentForApproval } from "../helpers/publishing.ts";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";
import { addMember } from "../helpers/team.ts";
import { arrives } from "../helpers/until.ts";
import { startReceiver, verified } from "../helpers/webhooks.ts";

let stack: Stack;
let receiver: ReturnType<typeof startReceiver>;
beforeAll(async () => {
  stack = await startStack({ bot: true, env: { WEBHOOKS_ALLOW_PRIVATE: "true" } });
  receiver = startReceiver();
});
afterAll(async () => {
  await stack.close();
  await receiver.close();
});

describe("webhooks", () => {
  test("a post's life arrives signed, in order: approval requested, approved, published", async () => {
    const p = await projectWithChannel(stack, { drafts: ["Hooked"] });
    const made = await stack.call("POST", `${p.base}/webhooks`, {
      url: receiver.url("/life"), events: ["post.approval_requested", "post.approved", "post.published"],
    }, p.cookie);
    expect(made.status, made.text).toBe(201);
    expect(made.json).toEqual({ id: expect.any(Number), url: receiver.url("/life"), events: ["post.approval_requested", "post.approved", "post.published"], secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/), createdAt: expect.any(String) });
    const listed = (await stack.call("GET", `${p.base}/webhooks`, undefined, p.cookie)).json;
    expect(JSON.stringify(listed)).not.toContain(made.json.secret);

    const { postId, preview } = await sentForApproval(stack, p, p.drafts[0].id, 3000);
    stack.telegram!.userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", postId));
    await postReaches(stack, postId, "published");
    const life = await arrives(() => {
      const got = receiver.received.filter((r) => r.path === "/life");
      return got.length >= 3 ? got : undefined;
    });
    const events = life.map((r) => JSON.parse(r.body));
    expect(events.map((e) => e.type)).toEqual(["post.approval_requested", "post.approved", "post.published"]);
    expect(events.map((e) => e.data.post.status)).toEqual(["scheduled", "approved", "published"]);
    for (const [i, r] of life.entries()) {
      expect(verified(made.json.secret, r)).toEqual(events[i]);
      // the same delivery with one byte changed, or under another endpoint's secret, is refused
      expect(() => verified(made.json.secret, { ...r, body: r.body.replace("Hooked", "Hacked") })).toThrow();
      expect(() => verified(`whsec_${btoa("another endpoint's secret")}`, r)).toThrow();
      expect(Math.abs(Number(r.headers.get("webhook-timestamp")) - Date.now() / 1000)).toBeLessThan(60);
      expect(events[i].data).toMatchObject({ projectId: p.project.id, post: { id: postId, title: "Hooked" } });
    }
    expect(new Set(life.map((r) => r.headers.get("webhook-id"))).size).toBe(3);
  });

  test("a failed delivery is retried under the same webhook-id, then delivered; the log says so; redeliver sends it again", async () => {
    const p = await projectWithChannel(stack);
    const hook = (await stack.call("POST", `${p.base}/webhooks`, { url: receiver.url("/flaky"), events: ["draft.created"] }, p.cookie)).json;
    let calls = 0;
    receiver.reply((r) => r.path === "/flaky" && ++calls === 1 ? new Response("down", { status: 500 }) : new Response("ok"));
    await stack.call("POST", `${p.base}/drafts`, { title: "Retried", content: "" }, p.cookie);
    const tries = await arrives(() => {
      const got = receiver.received.filter((r) => r.path === "/flaky");
      return got.length >= 2 ? got : undefined;
    }, 30_000);
    expect(tries[0].headers.get("webhook-id")).toBe(tries[1].headers.get("webhook-id"));
    const deliveries = await expectDelivered(p, hook.id);
    expect(deliveries[0]).toMatchObject({ eventType: "draft.created", status: "delivered", attempts: 2, lastStatus: 200 });

    const again = await stack.call("POST", `${p.base}/webhooks/${hook.id}/deliveries/${deliveries[0].id}/redeliver`, undefined, p.cookie);
    expect(again.status, again.text).toBe(200);
    const third = await arrives(() => receiver.received.filter((r) => r.path === "/flaky")[2]);
    expect(third.headers.get("webhook-id")).toBe(tries[0].headers.get("webhook-id"));
    receiver.reply(() => new Response("ok"));
  });

  test("a post's later event waits for the earlier one without a job or a try, then goes once the earlier one has failed its last try", async () => {
    const p = await projectWithChannel(stack, { drafts: ["Waits its turn"] });
    const hook = (await stack.call("POST", `${p.base}/webhooks`, { url: receiver.url("/order"), events: ["post.scheduled", "post.edited"] }, p.cookie)).json;
    // the receiver refuses the post's first event every time and takes the second
    receiver.reply((r) => r.path === "/order" && JSON.parse(r.body).type === "post.scheduled" ? new Response("down", { status: 500 }) : new Response("ok"));
    const scheduledFor = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const post = (await stack.call("POST", `${p.base}/posts`, { draftId: p.drafts[0].id, scheduledFor }, p.cookie)).json;
    const edited = await stack.call("PUT", `${p.base}/posts/${post.id}`, { draftId: p.drafts[0].id, title: "Waits its turn, edited", scheduledFor }, p.cookie);
    expect(edited.status, edited.text).toBe(200);
    const [first, second] = await stack.sql<{ id: number }[]>`select id from app_public.webhook_deliveries where webhook_id = ${hook.id} order by id`;
    const secondWaits = async () => {
      const [row] = await stack.sql`select status, attempts from app_public.webhook_deliveries where id = ${second.id}`;
      expect(row).toEqual({ status: "pending", attempts: 0 });
      expect(await stack.sql`select 1 from graphile_worker.jobs where key = ${`webhook_delivery:${second.id}`}`).toHaveLength(0);
    };
    await everyTry("/order", first.id, secondWaits);
    const order = await arrives(() => {
      const got = receiver.received.filter((r) => r.path === "/order");
      return got.length >= 11 ? got : undefined;
    });
    expect(order.map((r) => JSON.parse(r.body).type)).toEqual([...Array(10).fill("post.scheduled"), "post.edited"]);
    expect(new Set(order.slice(0, 10).map((r) => r.headers.get("webhook-id"))).size).toBe(1);
    const log = await expectDelivered(p, hook.id);
    expect(log.map((d: { status: string; attempts: number }) => [d.status, d.attempts])).toEqual([["delivered", 1], ["failed", 10]]);
    receiver.reply(() => new Response("ok"));
  });

  test("retries: the first within 60 s, then growing gaps as graphile-worker plans them, at least 5 tries over more than an hour", async () => {
    const p = await projectWithChannel(stack);
    const hook = (await stack.call("POST", `${p.base}/webhooks`, { url: receiver.url("/down"), events: ["draft.created"] }, p.cookie)).json;
    receiver.reply((r) => r.path === "/down" ? new Response("down", { status: 500 }) : new Response("ok"));
    await stack.call("POST", `${p.base}/drafts`, { title: "Never taken", content: "" }, p.cookie);
    const [delivery] = await stack.sql<{ id: number }[]>`select id from app_public.webhook_deliveries where webhook_id = ${hook.id}`;
    const gaps = await everyTry("/down", delivery.id);
    // graphile-worker's own backoff (node_modules/graphile-worker/dist/sql/failJobs.js): the
    // n-th failure plans the next try exp(min(n, 10)) seconds later
    expect(gaps).toHaveLength(9);
    for (const [i, gap] of gaps.entries()) {
      expect(gap, `gap after try ${i + 1}`).toBeGreaterThanOrEqual(Math.exp(i + 1) - 0.05);
      expect(gap, `gap after try ${i + 1}`).toBeLessThan(Math.exp(i + 1) + 2);
    }
    expect(gaps[0]).toBeLessThan(60);
    // the planned tries: 10, the last more than an hour (about 3.6 h) after the first
    expect(gaps.length + 1).toBeGreaterThanOrEqual(5);
    expect(gaps.reduce((a, b) => a + b, 0)).toBeGreaterThan(3600);
    const [row] = await stack.sql`select status, attempts, last_status from app_public.webhook_deliveries where id = ${delivery.id}`;
    expect(row).toEqual({ status: "failed", attempts: 10, lastStatus: 500 });
    receiver.reply(() => new Response("ok"));
  });

  test("a redirect is not followed, and a receiver that hangs holds back no other project's delivery", async () => {
    const hanging = await projectWithChannel(stack);
    const other = await projectWithChannel(stack);
    receiver.reply(async (r) => {
      if (r.path === "/hang") await new Promise((resolve) => setTimeout(resolve, 30_000));
      if (r.path === "/moved") return new Response(null, { status: 302, headers: { location: receiver.url("/elsewhere") } });
      return new Response("ok");
    });
    await stack.call("POST", `${hanging.base}/webhooks`, { url: receiver.url("/hang"), events: ["draft.created"] }, hanging.cookie);
    await stack.call("POST", `${hanging.base}/webhooks`, { url: receiver.url("/moved"), events: ["draft.created"] }, hanging.cookie);
    await stack.call("POST", `${other.base}/webhooks`, { url: receiver.url("/prompt"), events: ["draft.created"] }, other.cookie);
    for (let i = 0; i < 8; i++) await stack.call("POST", `${hanging.base}/drafts`, { title: `Stuck ${i}`, content: "" }, hanging.cookie);
    await arrives(() => receiver.received.find((r) => r.path === "/hang"));
    const asked = Date.now();
    await stack.call("POST", `${other.base}/drafts`, { title: "Not held back", content: "" }, other.cookie);
    const prompt = await arrives(() => receiver.received.find((r) => r.path === "/prompt"));
    expect(prompt.at - asked).toBeLessThan(5_000);
    await arrives(() => receiver.received.find((r) => r.path === "/moved"));
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.received.filter((r) => r.path === "/elsewhere")).toEqual([]);
    receiver.reply(() => new Response("ok"));
  });

  test("one account's ten endpoints that all hang hold back no other account's deliveries", async () => {
    const hanging = await projectWithChannel(stack);
    const other = await projectWithChannel(stack);
    receiver.reply(async (r) => {
      if (r.path.startsWith("/dead")) await new Promise((resolve) => setTimeout(resolve, 30_000));
      return new Response("ok");
    });
    for (let i = 0; i < 10; i++) {
      const made = await stack.call("POST", `${hanging.base}/webhooks`, { url: receiver.url(`/dead-${i}`), events: ["draft.created"] }, hanging.cookie);
      expect(made.status, made.text).toBe(201);
    }
    await stack.call("POST", `${other.base}/webhooks`, { url: receiver.url("/alive"), events: ["draft.created"] }, other.cookie);
    // each of the ten endpoints gets a delivery that hangs, again and again
    for (let i = 0; i < 3; i++) await stack.call("POST", `${hanging.base}/drafts`, { title: `Dead ${i}`, content: "" }, hanging.cookie);
    await arrives(() => receiver.received.filter((r) => r.path.startsWith("/dead")).length >= 2 || undefined);
    const asked = Date.now();
    await stack.call("POST", `${other.base}/drafts`, { title: "Alive", content: "" }, other.cookie);
    const alive = await arrives(() => receiver.received.find((r) => r.path === "/alive"));
    expect(alive.at - asked).toBeLessThan(5_000);
    // the hanging account holds two slots at most: two of its endpoints were ever asked at once
    const jobs = await stack.sql<{ queue: string }[]>`
      select distinct q.queue_name as queue from graphile_worker._private_jobs j
      join graphile_worker._private_job_queues q on q.id = j.job_queue_id
      join graphile_worker._private_tasks t on t.id = j.task_id
      where t.identifier = 'webhooks__deliver' and q.queue_name like 'webhook:account:%'
        and j.payload ->> 'deliveryId' in (select d.id::text from app_public.webhook_deliveries d
          join app_public.webhooks w on w.id = d.webhook_id where w.project_id = ${hanging.project.id})`;
    expect(jobs.length).toBeGreaterThan(0);
    expect(jobs.length).toBeLessThanOrEqual(2);
    receiver.reply(() => new Response("ok"));
  }, 60_000);

  test("only owners and editors manage webhooks; bad input and a stranger are refused", async () => {
    const p = await projectWithChannel(stack);
    const { cookie: stranger } = await stack.signIn(uniqueEmail("stranger"));
    expect((await stack.call("GET", `${p.base}/webhooks`, undefined, stranger)).status).toBe(404);
    expect((await stack.call("POST", `${p.base}/webhooks`, { url: "ftp://x", events: ["post.published"] }, p.cookie)).json.code).toBe("webhooks.urlInvalid");
    expect((await stack.call("POST", `${p.base}/webhooks`, { url: receiver.url(), events: ["post.exploded"] }, p.cookie)).json.code).toBe("webhooks.eventsInvalid");
    expect((await stack.call("POST", `${p.base}/webhooks`, { url: receiver.url(), events: [] }, p.cookie)).json.code).toBe("webhooks.eventsInvalid");
    // an endpoint's events and address change in place
    const hook = (await stack.call("POST", `${p.base}/webhooks`, { url: receiver.url("/a"), events: ["post.published"] }, p.cookie)).json;
    const changed = await stack.call("PATCH", `${p.base}/webhooks/${hook.id}`, { events: ["post.published", "post.failed"] }, p.cookie);
    expect(changed.json).toMatchObject({ id: hook.id, url: receiver.url("/a"), events: ["post.published", "post.failed"] });
    expect((await stack.call("PATCH", `${p.base}/webhooks/${hook.id}`, { url: receiver.url("/b") }, p.cookie)).json.url).toBe(receiver.url("/b"));
    expect((await stack.call("PATCH", `${p.base}/webhooks/${hook.id}`, { events: [] }, p.cookie)).json.code).toBe("webhooks.eventsInvalid");
    expect((await stack.call("PATCH", `${p.base}/webhooks/${hook.id}`, { events: ["post.failed"] }, stranger)).status).toBe(404);
  });

  test("every member reads the endpoints and their logs; only those who manage them read a whole address, which may be a secret", async () => {
    const p = await projectWithChannel(stack);
    const secretUrl = "https://user:pass@hooks.example.com:8443/webhook/4f9c2a1e?token=abc#frag";
    await stack.sql`insert into app_public.webhooks (project_id, url, events) values (${p.project.id}, ${secretUrl}, '{draft.created}')`;
    const [hook] = (await stack.call("GET", `${p.base}/webhooks`, undefined, p.cookie)).json;
    expect(hook.url).toBe(secretUrl);
    for (const role of ["editor", "author", "viewer"] as const) {
      const member = await addMember(stack, p.project.id, p.cookie, role);
      const listed = await stack.call("GET", `${p.base}/webhooks`, undefined, member.cookie);
      expect(listed.status, role).toBe(200);
      expect(listed.json[0].url, role).toBe(role === "editor" ? secretUrl : "https://hooks.example.com:8443/…");
      expect(JSON.stringify(listed.json)).not.toContain("whsec_");
      const log = await stack.call("GET", `${p.base}/webhooks/${hook.id}/deliveries`, undefined, member.cookie);
      expect(log.status, role).toBe(200);
      if (role !== "editor") {
        expect((await stack.call("DELETE", `${p.base}/webhooks/${hook.id}`, undefined, member.cookie)).json.code).toBe("team.forbidden");
      }
    }
  });
});

/** The endpoint's delivery log once its newest delivery is delivered. */
async function expectDelivered(p: { base: string; cookie: string }, hookId: number) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const rows = (await stack.call("GET", `${p.base}/webhooks/${hookId}/deliveries`, undefined, p.cookie)).json;
    if (rows[0]?.status === "delivered") return rows;
    if (Date.now() > deadline) throw new Error(JSON.stringify(rows));
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Runs every try of a delivery the receiver refuses at `path`, each as soon as it fails (its
 * job's run_at moved to now, as the hours of its schedule would): answers the gaps, in
 * seconds, graphile-worker planned after each failed try but the last, from the try's
 * arrival. `meanwhile` runs after each failure.
 */
async function everyTry(path: string, deliveryId: number, meanwhile: () => Promise<void> = async () => {}) {
  const key = `webhook_delivery:${deliveryId}`;
  const gaps: number[] = [];
  for (let n = 1;; n++) {
    const tried = await arrives(() => receiver.received.filter((r) => r.path === path)[n - 1], 20_000);
    const deadline = Date.now() + 20_000;
    for (;;) {
      const [job] = await stack.sql<{ attempts: number; maxAttempts: number; runAt: string }[]>`
        select attempts, max_attempts, run_at from graphile_worker.jobs where key = ${key} and locked_at is null and attempts = ${n}`;
      const [{ status }] = await stack.sql`select status from app_public.webhook_deliveries where id = ${deliveryId}`;
      // its last try: the delivery failed, its job is done
      if (status === "failed") return gaps;
      if (job) {
        expect(job.maxAttempts).toBe(10);
        gaps.push((Date.parse(job.runAt) - tried.at) / 1000);
        await meanwhile();
        await stack.sql`select graphile_worker.reschedule_jobs(array(select id from graphile_worker.jobs where key = ${key}), run_at := now())`;
        break;
      }
      if (Date.now() > deadline) throw new Error(`try ${n} of ${key} never failed`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

describe("where a webhook may go", () => {
  test("only public https addresses, checked after DNS: loopback, private ranges, a name resolving to one and http are refused", async () => {
    const resolve = async (host: string, type: "A" | "AAAA") =>
      type === "AAAA" ? [] : ({ "intranet.example": ["10.1.2.3"], "public.example": ["93.184.216.34"] } as Record<string, string[]>)[host] ?? [];
    expect(await refuseTarget("https://127.0.0.1/hook", false, resolve)).toBe("address");
    expect(await refuseTarget("https://[::1]/hook", false, resolve)).toBe("address");
    expect(await refuseTarget("https://192.168.1.10/hook", false, resolve)).toBe("address");
    expect(await refuseTarget("https://169.254.169.254/latest/meta-data", false, resolve)).toBe("address");
    expect(await refuseTarget("https://localhost/hook", false, resolve)).toBe("address");
    expect(await refuseTarget("https://intranet.example/hook", false, resolve)).toBe("address");
    expect(await refuseTarget("http://public.example/hook", false, resolve)).toBe("scheme");
    expect(await refuseTarget("https://nowhere.example/hook", false, resolve)).toBe("unresolved");
    expect(await refuseTarget("https://public.example/hook", false, resolve)).toBeUndefined();
    // the delivery connects to the addresses checked, not to a second DNS answer
    expect(await checkTarget("https://public.example/hook", false, resolve)).toEqual({ addresses: ["93.184.216.34"] });
  });

  test("without WEBHOOKS_ALLOW_PRIVATE the API refuses a private or plain-http target", async () => {
    const strict = await startStack();
    try {
      const { cookie } = await strict.signIn(uniqueEmail("strict"));
      const id = (await strict.call("POST", "/api/projects", { name: "Strict", adminHandle: "strict_admin" }, cookie)).json.id;
      for (const url of ["https://127.0.0.1/hook", "https://10.0.0.8/hook", "http://example.com/hook", "https://localhost:8443/x"]) {
        const refused = await strict.call("POST", `/api/projects/${id}/webhooks`, { url, events: ["post.published"] }, cookie);
        expect(refused.status, url).toBe(400);
        expect(refused.json.code, url).toBe("webhooks.targetRefused");
      }
      expect((await strict.sql`select count(*)::int as n from app_public.webhooks`)[0].n).toBe(0);
    } finally {
      await strict.close();
    }
  });
});

describe("a delivery connects to the address its check resolved (no DNS rebinding)", () => {
  // .test names are reserved (RFC 6761): no DNS server answers them, so a send that asked DNS
  // again, as fetch does, would find nothing; only this check's resolver knows them
  const resolve = (host: string, type: "A" | "AAAA") => Promise.resolve(type === "A" && host.endsWith(".test") ? ["127.0.0.1"] : []);
  const lastTry = { job: { attempts: 1, max_attempts: 1 }, logger: { error() {} } } as never;

  /** One delivery to `url`, sent once by the delivery task with the resolver above; its row after. */
  async function sendOnce(url: string, ca?: string) {
    const p = await projectWithChannel(stack);
    const hook = (await stack.call("POST", `${p.base}/webhooks`, { url, events: ["draft.created"] }, p.cookie)).json;
    const [{ id }] = await stack.sql`insert into app_public.webhook_deliveries (webhook_id, message_id, event_type, payload)
      values (${hook.id}, ${`msg_${hook.id}`}, 'draft.created', '{}') returning id`;
    await deliverWebhook(stack.sql, { allowPrivate: true, resolve, ca })({ deliveryId: Number(id) }, lastTry);
    const [row] = await stack.sql`select status, last_status, last_error from app_public.webhook_deliveries where id = ${id}`;
    return row;
  }

  test("a name goes to the address the check resolved, named in Host", async () => {
    const url = `http://hook.test:${receiver.port}/pinned`;
    await expect(fetch(url, { method: "POST" })).rejects.toThrow();
    expect(await sendOnce(url)).toMatchObject({ status: "delivered", lastStatus: 200 });
    const got = receiver.received.filter((r) => r.path === "/pinned");
    expect(got).toHaveLength(1);
    expect(got[0].headers.get("host")).toBe(`hook.test:${receiver.port}`);
  });

  test("over TLS the certificate is verified against the URL's name, not the address connected to", async () => {
    const { cert, key } = await selfSigned("hook.test");
    const paths: string[] = [];
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, cert, key, onListen() {} }, (req) => {
      paths.push(`${req.headers.get("host")} ${new URL(req.url).pathname}`);
      return new Response("ok");
    });
    try {
      const port = server.addr.port;
      expect(await sendOnce(`https://hook.test:${port}/secure`, cert)).toMatchObject({ status: "delivered", lastStatus: 200 });
      expect(paths).toEqual([`hook.test:${port} /secure`]);
      // the same server and address under another name: its certificate does not name it
      const renamed = await sendOnce(`https://other.test:${port}/secure`, cert);
      expect(renamed).toMatchObject({ status: "failed", lastStatus: null });
      expect(renamed.lastError).toMatch(/altnames/);
      // without the test's own root the self-signed certificate is not trusted
      expect((await sendOnce(`https://hook.test:${port}/secure`)).lastError).toMatch(/self-signed/);
      expect(paths).toHaveLength(1);
    } finally {
      await server.shutdown();
    }
  });
});

/** A certificate for `name` signed by itself, made now; only the test that makes it trusts it. */
async function selfSigned(name: string) {
  const dir = await Deno.makeTempDir();
  try {
    const made = await new Deno.Command("openssl", {
      args: ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1", "-subj", `/CN=${name}`,
        "-addext", `subjectAltName=DNS:${name}`, "-keyout", `${dir}/key.pem`, "-out", `${dir}/cert.pem`],
      stdout: "null", stderr: "piped",
    }).output();
    if (!made.success) throw new Error(new TextDecoder().decode(made.stderr));
    return { cert: await Deno.readTextFile(`${dir}/cert.pem`), key: await Deno.readTextFile(`${dir}/key.pem`) };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

describe("an endpoint that keeps failing", () => {
  test("after 3 days of failures it is switched off, the activity says so and the owner is mailed; a redelivery switches it on", async () => {
    const p = await projectWithChannel(stack);
    const hook = (await stack.call("POST", `${p.base}/webhooks`, { url: receiver.url("/dead"), events: ["draft.created"] }, p.cookie)).json;
    const [delivery] = await stack.sql`
      insert into app_public.webhook_deliveries (webhook_id, message_id, event_type, payload, created_at)
      values (${hook.id}, 'msg_old', 'draft.created', '{}', now() - interval '4 days') returning id`;
    await stack.sql`select app_public.record_webhook_attempt(${delivery.id}, false, 500, 'down', false)`;
    const listed = (await stack.call("GET", `${p.base}/webhooks`, undefined, p.cookie)).json;
    expect(listed[0].disabledAt).toEqual(expect.any(String));
    const activity = (await stack.call("GET", `${p.base}/activity?action=webhook.disabled`, undefined, p.cookie)).json;
    expect(activity.items).toHaveLength(1);
    const [owner] = await stack.sql`select u.email from app_public.users u join app_public.projects pr on pr.user_id = u.id where pr.id = ${p.project.id}`;
    const mail = await arrives(() => stack.smtp.mailsTo(owner.email).find((m) => m.subject.includes("вебхук")));
    expect(mail.text).toContain(`/project/${p.project.id}/webhooks`);

    await stack.call("POST", `${p.base}/webhooks/${hook.id}/deliveries/${delivery.id}/redeliver`, undefined, p.cookie);
    expect((await stack.call("GET", `${p.base}/webhooks`, undefined, p.cookie)).json[0].disabledAt).toBeNull();
  });

  test("switched on again, by a new address or a redelivery, it sends what was still pending when it was switched off", async () => {
    const p = await projectWithChannel(stack);
    for (const [path, switchOn] of [["/resumed-by-address", "address"], ["/resumed-by-redelivery", "redeliver"]] as const) {
      const first = switchOn === "address" ? `${path}-old` : path;
      const hook = (await stack.call("POST", `${p.base}/webhooks`, { url: receiver.url(first), events: ["draft.created"] }, p.cookie)).json;
      // two events were still pending when it was switched off; their jobs ended, sending nothing
      const stranded = await stack.sql<{ id: number }[]>`
        insert into app_public.webhook_deliveries (webhook_id, message_id, event_type, payload)
        values (${hook.id}, ${`msg${path}_1`}, 'draft.created', '{}'), (${hook.id}, ${`msg${path}_2`}, 'draft.created', '{}') returning id`;
      await stack.sql`update app_public.webhooks set disabled_at = now() where id = ${hook.id}`;
      if (switchOn === "address") {
        const moved = await stack.call("PATCH", `${p.base}/webhooks/${hook.id}`, { url: receiver.url(path) }, p.cookie);
        expect(moved.json.disabledAt).toBeNull();
      } else {
        // one of them redelivered: the other goes too
        await stack.call("POST", `${p.base}/webhooks/${hook.id}/deliveries/${stranded[0].id}/redeliver`, undefined, p.cookie);
      }
      const got = await arrives(() => {
        const ids = receiver.received.filter((r) => r.path === path).map((r) => r.headers.get("webhook-id"));
        return new Set(ids).size >= 2 ? ids : undefined;
      }, 30_000);
      expect([...new Set(got)].sort()).toEqual([`msg${path}_1`, `msg${path}_2`]);
    }
  });

  test("the daily cleanup drops finished deliveries older than 30 days and keeps recent and pending ones", async () => {
    const p = await projectWithChannel(stack);
    const hook = (await stack.call("POST", `${p.base}/webhooks`, { url: receiver.url("/kept"), events: ["draft.created"] }, p.cookie)).json;
    const rows = [["old_delivered", "delivered", 31], ["old_failed", "failed", 40], ["old_pending", "pending", 31], ["recent", "delivered", 29]] as const;
    for (const [id, status, days] of rows) {
      await stack.sql`insert into app_public.webhook_deliveries (webhook_id, message_id, event_type, payload, status, created_at)
        values (${hook.id}, ${id}, 'draft.created', '{}', ${status}, now() - make_interval(days => ${days}))`;
    }
    await cleanupSessions(stack.sql)({}, {} as never);
    const log = (await stack.call("GET", `${p.base}/webhooks/${hook.id}/deliveries`, undefined, p.cookie)).json;
    const [{ ids }] = await stack.sql`select array_agg(message_id order by message_id) as ids from app_public.webhook_deliveries where webhook_id = ${hook.id}`;
    expect(ids).toEqual(["old_pending", "recent"]);
    // the endpoint's log shows the two left
    expect(log).toHaveLength(2);
  });
});
