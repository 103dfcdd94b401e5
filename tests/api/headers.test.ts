/*
 * What the served web app's responses carry: a Content-Security-Policy (scripts only from
 * our origin, no eval, no framing), nosniff and a Referrer-Policy; a malformed
 * percent-escape in a path is a 400, never a 500. And the policy is one the built app
 * really lives with: Chromium walks through its pages, an image preview included, and
 * reports no violation.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CONTENT_SECURITY_POLICY } from "../../api/static.ts";
import { makePng } from "../helpers/images.ts";
import type { Stack } from "../helpers/stack.ts";
import { closeBrowserStack, openBrowserStack, signInThroughUi } from "../helpers/web.ts";

let stack: Stack;
let browser: Browser;
let page: Page;
const ADMIN = "csp.admin@example.com";
beforeAll(async () => {
  ({ stack, browser, page } = await openBrowserStack({ env: { ADMIN_EMAILS: ADMIN } }));
});
afterAll(async () => {
  await closeBrowserStack({ stack, browser });
});

/** The policy as directive → sources. */
function directives(policy: string | null) {
  return new Map(
    (policy ?? "").split(";").map((part) => part.trim()).filter(Boolean).map((part) => {
      const [name, ...sources] = part.split(/\s+/);
      return [name, sources] as const;
    }),
  );
}

describe("headers of the web app's responses", () => {
  test("index.html, a client-side route and a built asset carry the CSP, nosniff and a Referrer-Policy", async () => {
    const index = await stack.app.request("/");
    const html = await index.text();
    const asset = html.match(/src="(\/assets\/[^"]+\.js)"/)![1];
    for (const path of ["/", "/project/1/drafts", "/favicon.svg", asset]) {
      const res = path === "/" ? index : await stack.app.request(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-security-policy"), path).toBe(CONTENT_SECURITY_POLICY);
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(res.headers.get("referrer-policy"), path).toBe("no-referrer");
    }
  });

  test("the policy: scripts only from our origin and never eval; no framing, plugins or foreign base", () => {
    const policy = directives(CONTENT_SECURITY_POLICY);
    expect(policy.get("script-src")).toEqual(["'self'"]);
    expect(policy.get("default-src")).toEqual(["'self'"]);
    expect(policy.get("connect-src")).toEqual(["'self'"]);
    expect(policy.get("img-src")).toEqual(["'self'", "blob:"]);
    expect(policy.get("style-src")).toEqual(["'self'", "'unsafe-inline'"]);
    expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
    expect(policy.get("object-src")).toEqual(["'none'"]);
    expect(policy.get("base-uri")).toEqual(["'self'"]);
    expect(CONTENT_SECURITY_POLICY).not.toContain("unsafe-eval");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/\*|https?:/);
  });

  test("an unknown /api path answers 404 JSON whatever the method; only other paths fall back to the app", async () => {
    const { cookie } = await stack.signIn("unknown.paths@example.com");
    const project = await stack.call("POST", "/api/projects", { name: "Paths" }, cookie);
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
      for (const path of ["/api/nope", `/api/projects/${project.json.id}/nope`, "/api/", "/api/auth/nope/deeper"]) {
        const res = await stack.call(method, path, method === "GET" ? undefined : {}, cookie);
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.headers.get("content-type"), `${method} ${path}`).toMatch(/^application\/json/);
        expect(res.json, `${method} ${path}`).toEqual({ message: "Not found", code: "notFound" });
      }
    }
    const page = await stack.app.request("/project/1/nope");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<div id=\"root\"");
  });

  test("a malformed percent-escape in a path answers 400 JSON, not 500", async () => {
    for (const path of ["/%E0%A4%A", "/foo%zz", "/assets/%", "/project/%C3%28/drafts"]) {
      const res = await stack.app.request(path);
      expect(res.status, path).toBe(400);
      expect(await res.json(), path).toEqual({ message: "The address is malformed", code: "request.malformedAddress" });
      expect(res.headers.get("content-security-policy"), path).toBe(CONTENT_SECURITY_POLICY);
    }
    // well-formed escapes still work, and cannot climb out of web/dist
    expect((await stack.app.request("/fav%69con.svg")).headers.get("content-type")).toBe("image/svg+xml");
    for (const path of ["/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2f..%2fetc%2fpasswd", "/%00"]) {
      const res = await stack.app.request(path);
      expect(res.status, path).toBeLessThan(500);
      expect(await res.text(), path).not.toContain("root:");
    }
  });
});

test("in Chromium the built app runs under its CSP without a single violation", async () => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content[ -]Security[ -]Policy/i.test(message.text())) violations.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => {
    if (/Content[ -]Security[ -]Policy|unsafe-eval/i.test(error.message)) {
      violations.push(`error: ${error.message}`);
    }
  });
  await page.exposeFunction("__reportCspViolation", (text: string) => void violations.push(`event: ${text}`));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      const report =
        (globalThis as unknown as { __reportCspViolation(text: string): void }).__reportCspViolation;
      report(
        `${event.violatedDirective} blocked ${
          event.blockedURI || "inline"
        } at ${event.sourceFile}:${event.lineNumber}`,
      );
    });
  });

  await signInThroughUi(page, stack, ADMIN);
  const response = await page.goto(`${stack.baseUrl}/`);
  expect(response!.headers()["content-security-policy"]).toBe(CONTENT_SECURITY_POLICY);
  await expect.poll(() => page.getByTestId("greeting").count(), { timeout: 10_000 }).toBe(1);

  const project = await page.evaluate(async () => {
    const res = await fetch("/api/projects", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "CSP", adminHandle: "csp_admin" }),
    });
    return (await res.json()) as { id: number };
  });
  const draft = await page.evaluate(async (id) => {
    const res = await fetch(`/api/projects/${id}/drafts`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ title: "С картинкой" }),
    });
    return (await res.json()) as { id: number };
  }, project.id);
  expect(draft.id).toBeGreaterThan(0);

  for (
    const path of [
      "/settings",
      `/project/${project.id}`,
      ...["ai-assistant", "channels", "schedule", "drafts", "published"].map((s) =>
        `/project/${project.id}/${s}`
      ),
      "/admin",
      "/no/such/page",
    ]
  ) {
    await page.goto(`${stack.baseUrl}${path}`);
    await page.waitForLoadState("networkidle");
  }

  // The draft editor: picking an image shows a blob: preview, then the uploaded /api/uploads/… one.
  const imagePath = await Deno.makeTempFile({ prefix: "pressa-csp-", suffix: ".png" });
  try {
    await Deno.writeFile(imagePath, makePng(320, 180, [200, 80, 60]));
    await page.goto(`${stack.baseUrl}/project/${project.id}/drafts/${draft.id}`);
    const editor = page.getByRole("dialog");
    await editor.getByTestId("image-input").setInputFiles(imagePath);
    await expect.poll(() => editor.getByTestId("image-preview").locator("img").getAttribute("src"), {
      timeout: 10_000,
    }).toMatch(
      /^\/api\/uploads\//,
    );
    await expect.poll(() =>
      editor.getByTestId("image-preview").locator("img").evaluate((img: HTMLImageElement) => img.naturalWidth)
    )
      .toBe(320);
  } finally {
    await Deno.remove(imagePath).catch(() => {});
  }
  await page.waitForTimeout(300);
  expect(violations).toEqual([]);
  // Mantine's injected <style> (the theme's own colours) applies: 'unsafe-inline' for styles is needed
  const brand = await page.evaluate(() =>
    getComputedStyle(document.documentElement).getPropertyValue("--mantine-color-brand-6").trim()
  );
  expect(brand).not.toBe("");
}, 120_000);
