/*
 * README is the guide a newcomer reads first: short, and every page it sends them to exists.
 * The topics live in docs/, one page each; a page nobody links from README is a page nobody finds.
 */
import { expect, test } from "vitest";

const root = new URL("..", import.meta.url).pathname;
const readme = Deno.readTextFileSync(`${root}README.md`);
const pages = [...Deno.readDirSync(`${root}docs`)].map((entry) => entry.name).filter((name) => name.endsWith(".md"));

test("README stays a guide of under 300 lines", () => {
  expect(readme.split("\n").length).toBeLessThan(300);
});

test("every docs/ page README links to exists, and README links to every docs/ page", () => {
  const linked = new Set([...readme.matchAll(/\]\(docs\/([\w-]+\.md)(?:#[\w-]+)?\)/g)].map(([, page]) => page));
  for (const page of linked) expect(pages, `README links to docs/${page}, which is missing`).toContain(page);
  for (const page of pages) expect(linked.has(page), `docs/${page} is linked from nowhere in README`).toBe(true);
});

test("README keeps the commands CI runs", () => {
  // .ci/run calls these two; README is where a developer learns them
  expect(readme).toContain("npm install && npm start");
  expect(readme).toContain("npm test");
  expect(readme).toContain("npm run test:pg15");
});

test("docs/ pages link only to pages and anchors that exist", () => {
  for (const page of pages) {
    const text = Deno.readTextFileSync(`${root}docs/${page}`);
    for (const [, target, anchor] of text.matchAll(/\]\(([\w-]+\.md)(?:#([\w-]+))?\)/g)) {
      expect(pages, `docs/${page} links to ${target}`).toContain(target);
      if (!anchor) continue;
      const headings = Deno.readTextFileSync(`${root}docs/${target}`).split("\n").filter((line) => line.startsWith("#"))
        .map((line) => line.replace(/^#+\s*/, "").toLowerCase().replace(/[^\w\s-]/g, "").trim().replace(/\s+/g, "-"));
      expect(headings, `docs/${page} links to ${target}#${anchor}`).toContain(anchor);
    }
  }
});

test("README's few lines that verify a webhook accept what Standard Webhooks' own library signs, and nothing changed", async () => {
  const block = /## Automation[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(block, "README's Automation section has its verifying lines").toBeTruthy();
  const file = `${Deno.makeTempDirSync()}/verify.mjs`;
  Deno.writeTextFileSync(file, `${block}\nexport { verified };\n`);
  const { verified } = await import(file) as { verified: (secret: string, headers: Record<string, string>, body: string) => boolean };
  const { Webhook } = await import("standardwebhooks");
  const secret = `whsec_${btoa("a secret of thirty-two bytes.....")}`;
  const body = JSON.stringify({ type: "post.published", timestamp: new Date().toISOString(), data: { projectId: 1 } });
  const now = new Date();
  const headers = {
    "webhook-id": "msg_1",
    "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
    "webhook-signature": new Webhook(secret).sign("msg_1", now, body),
  };
  expect(verified(secret, headers, body)).toBe(true);
  expect(verified(secret, headers, body.replace("published", "deleted"))).toBe(false);
  expect(verified(`whsec_${btoa("another secret")}`, headers, body)).toBe(false);
  const old = { ...headers, "webhook-timestamp": String(Math.floor(now.getTime() / 1000) - 3600) };
  expect(verified(secret, old, body)).toBe(false);
});
