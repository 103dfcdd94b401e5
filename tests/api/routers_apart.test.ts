/*
 * Routers never import routers: what two resources share (Telegram checks, multipart images)
 * lives in a module of its own (core/telegram/checks.ts, api/multipart.ts), so a route file
 * can be read, moved or removed alone. Only api/app.ts mounts them.
 */
import { expect, test } from "vitest";

const ROUTES = new URL("../../api/routes/", import.meta.url);

/** The module specifiers a TypeScript file imports or re-exports (static and dynamic). */
function imports(text: string): string[] {
  const found = [...text.matchAll(/\b(?:import|export)\s[^;]*?\bfrom\s*["']([^"']+)["']/g)].map((m) => m[1]);
  found.push(...[...text.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]));
  return found;
}

test("no file in api/routes imports another file in api/routes", async () => {
  const routeFiles: string[] = [];
  for await (const entry of Deno.readDir(ROUTES)) if (entry.isFile && entry.name.endsWith(".ts")) routeFiles.push(entry.name);
  expect(routeFiles.length).toBeGreaterThan(10);
  const crossings: string[] = [];
  for (const name of routeFiles) {
    const here = new URL(name, ROUTES);
    for (const specifier of imports(await Deno.readTextFile(here))) {
      if (!specifier.startsWith(".")) continue;
      const target = new URL(specifier, here);
      if (target.href.startsWith(ROUTES.href)) crossings.push(`api/routes/${name} imports ${specifier}`);
    }
  }
  expect(crossings, "move what two routers share into a module of its own (core/ or api/)").toEqual([]);
});

test("the check sees an import of a router, whatever its form", () => {
  const text = `import { a } from "./channels.ts";\nimport type { B } from "../routes/posts.ts";\nexport { c } from './uploads.ts';\nconst d = await import("./x.ts");`;
  expect(imports(text)).toEqual(["./channels.ts", "../routes/posts.ts", "./uploads.ts", "./x.ts"]);
});
