import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchBrowser } from "../helpers/browser.ts";
import { makePng, makeWithChromium } from "../helpers/images.ts";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";

let stack: Stack;
let browser: Browser;
let alice: string;
let bob: string;
let projectId: number;
beforeAll(async () => {
  stack = await startStack();
  browser = await launchBrowser();
  alice = (await stack.signIn(uniqueEmail("alice"))).cookie;
  bob = (await stack.signIn(uniqueEmail("bob"))).cookie;
  projectId = (await stack.call("POST", "/api/projects", { name: "Images", adminHandle: "admin_one" }, alice)).json.id;
});
afterAll(async () => {
  await browser.close();
  await stack.close();
});

async function upload(bytes: Uint8Array<ArrayBuffer>, filename: string, type = "image/png", cookie = alice, pid = projectId) {
  const form = new FormData();
  form.append("image", new File([bytes], filename, { type }));
  const res = await stack.app.request(`/api/projects/${pid}/upload-image`, { method: "POST", body: form, headers: { cookie } });
  return { status: res.status, json: await res.json() };
}

async function storedFiles() {
  const names: string[] = [];
  for await (const entry of Deno.readDir(stack.uploadsDir)) names.push(entry.name);
  return names;
}

describe("image upload", () => {
  test("a valid PNG is stored and served to its owner with its type and private long cache headers", async () => {
    const png = makePng(640, 360);
    const res = await upload(png, "photo.png");
    expect(res.status).toBe(201);
    expect(res.json.imageUrl).toMatch(/^\/api\/uploads\/[A-Za-z0-9_-]{24}\.png$/);
    expect(res.json).toMatchObject({ width: 640, height: 360 });
    const served = await stack.app.request(res.json.imageUrl, { headers: { cookie: alice } });
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(png);
  });

  test("a valid JPEG and WebP from Chromium's encoders are accepted by their bytes", async () => {
    const jpeg = await makeWithChromium(browser, "image/jpeg", 800, 600);
    const jpegRes = await upload(jpeg, "camera.bin", "application/octet-stream");
    expect(jpegRes.status).toBe(201);
    expect(jpegRes.json).toMatchObject({ width: 800, height: 600 });
    expect(jpegRes.json.imageUrl).toMatch(/\.jpg$/);
    const webp = await makeWithChromium(browser, "image/webp", 300, 200);
    const webpRes = await upload(webp, "pic.webp", "image/webp");
    expect(webpRes.status).toBe(201);
    expect(webpRes.json).toMatchObject({ width: 300, height: 200 });
  });

  test("a text file renamed .png is refused (drafts.invalidImageType) and nothing is stored", async () => {
    const before = await storedFiles();
    const res = await upload(new TextEncoder().encode("hello, I am not an image\n".repeat(20)), "fake.png");
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ message: "drafts.invalidImageType", code: "drafts.invalidImageType" });
    expect(await storedFiles()).toEqual(before);
  });

  test("a truncated PNG does not load and is refused", async () => {
    const png = makePng(100, 100);
    const res = await upload(png.slice(0, png.length - 20), "cut.png");
    expect(res.json.code).toBe("drafts.invalidImageType");
  });

  test("an 11 MB file is refused with drafts.imageTooBig", async () => {
    const big = new Uint8Array(11 * 1024 * 1024);
    big.set(makePng(10, 10));
    const res = await upload(big, "big.png");
    expect(res.status).toBe(413);
    expect(res.json.code).toBe("drafts.imageTooBig");
  });

  test("a streamed body far over the limit is cut off early, not buffered", async () => {
    let sent = 0;
    const chunk = new Uint8Array(1024 * 1024);
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 1024 * chunk.length) return controller.close(); // would be 1 GB
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const res = await stack.app.request(`/api/projects/${projectId}/upload-image`, {
      method: "POST",
      body: stream,
      headers: { cookie: alice, "content-type": "multipart/form-data; boundary=x", "transfer-encoding": "chunked" },
      // @ts-ignore: streaming request bodies need duplex in fetch's RequestInit
      duplex: "half",
    });
    expect(res.status).toBe(413);
    expect(sent).toBeLessThan(20 * 1024 * 1024);
  });

  test("a 10001×1 image (width + height over 10000) is refused", async () => {
    const res = await upload(makePng(10001, 1), "line.png");
    expect(res.json.code).toBe("drafts.invalidImageType");
  });

  test("a 2100×100 image (21:1) is refused, 2000×100 (20:1) is accepted", async () => {
    expect((await upload(makePng(2100, 100), "wide.png")).json.code).toBe("drafts.invalidImageType");
    expect((await upload(makePng(2000, 100), "ok.png")).status).toBe(201);
  });

  test("uploading to another user's project is 404 and stores nothing", async () => {
    const before = await storedFiles();
    const res = await upload(makePng(10, 10), "x.png", "image/png", bob);
    expect(res.status).toBe(404);
    expect(await storedFiles()).toEqual(before);
  });

  test("without the image field or without a session", async () => {
    const form = new FormData();
    form.append("other", "x");
    const res = await stack.app.request(`/api/projects/${projectId}/upload-image`, { method: "POST", body: form, headers: { cookie: alice } });
    expect(res.status).toBe(400);
    expect((await upload(makePng(10, 10), "x.png", "image/png", "")).status).toBe(401);
  });

  test("orphaned uploads are found after the grace period, referenced ones are kept", async () => {
    const kept = (await upload(makePng(20, 20), "kept.png")).json.imageUrl;
    const orphan = (await upload(makePng(21, 21), "orphan.png")).json.imageUrl;
    await stack.call("POST", `/api/projects/${projectId}/drafts`, { title: "With image", imageUrl: kept }, alice);
    await stack.sql`update app_private.uploads set created_at = now() - interval '2 days'`;
    const keys = (await stack.sql`select * from app_public.take_orphan_uploads('1 day')`).map((r) => r.takeOrphanUploads);
    expect(keys).toContain(orphan.split("/").pop());
    expect(keys).not.toContain(kept.split("/").pop());
  });
});

test("the cleanup task deletes orphaned files and keeps referenced ones", async () => {
  const kept = (await upload(makePng(30, 30), "kept.png")).json.imageUrl as string;
  const orphan = (await upload(makePng(31, 31), "orphan.png")).json.imageUrl as string;
  await stack.call("POST", `/api/projects/${projectId}/drafts`, { title: "Keeps its image", imageUrl: kept }, alice);
  await stack.sql`update app_private.uploads set created_at = now() - interval '2 days'`;
  await stack.sql`select graphile_worker.add_job('uploads__cleanup', '{}'::json)`;
  const orphanName = orphan.split("/").pop()!;
  const deadline = Date.now() + 10_000;
  while ((await storedFiles()).includes(orphanName) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const files = await storedFiles();
  expect(files).not.toContain(orphanName);
  expect(files).toContain(kept.split("/").pop());
  expect((await stack.app.request(orphan, { headers: { cookie: alice } })).status).toBe(404);
});
