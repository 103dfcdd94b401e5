/*
 * The floors of the tree, as imports: contract/ (what every process and the SPA agree on) is
 * the ground and imports only pure libraries; core/ (what the server processes share) stands
 * on it alone; the processes' folders (api/, tasks/, bot/) stand on both and not on each
 * other; web/ stands on contract/ only, and nothing outside web/ reaches into it. An arrow
 * running up a floor makes a low module depend on a high one (core/ on Hono, a worker on
 * the browser app) and is refused here, naming the file and the import. main/ is the top: each of
 * its files builds one process (the API hosts the bot in webhook mode), so no process folder
 * imports another, and nothing imports main/. A circle of imports among the server's or the
 * SPA's files is refused too: a circle has no floor to read it from.
 */
import { dirname, join, normalize, relative } from "node:path";
import { expect, test } from "vitest";
import { ROOT, sources } from "./helpers/tree.ts";

/** Which top-level folders a folder's files may import; npm packages are checked apart. */
const FLOORS: Record<string, string[]> = {
  contract: ["contract"],
  core: ["core", "contract"],
  texts: ["texts", "contract"],
  sql: ["sql", "core", "contract"],
  api: ["api", "core", "contract", "texts"],
  tasks: ["tasks", "core", "contract", "texts"],
  bot: ["bot", "core", "contract", "texts"],
  web: ["web", "contract", "texts"],
  main: ["api", "tasks", "bot", "core", "contract", "texts", "sql"],
  scripts: ["scripts", "core", "contract", "sql", "sandbox"],
  // the Telegram sandbox (the tests' Bot API double, run by `npm run demo`) stands apart from the product
  sandbox: ["sandbox", "contract"],
};

/** Only these packages may be imported by contract/: the SPA and every process load it. */
const CONTRACT_PACKAGES = ["valibot", "markdown-it"];

/** The web framework and the browser's libraries belong to their floors, never to core/. */
const NOT_IN_CORE = /^(hono|@hono\/|react|@mantine\/|swr)/;


const SPECIFIER = /(?:^|[\s;])(?:import|export)\s(?:[^"';]*?\sfrom\s)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

async function importsOf(file: string) {
  const text = await Deno.readTextFile(join(ROOT, file));
  // comments may name a path without importing it
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
  return [...code.matchAll(SPECIFIER)].map((m) => m[1] ?? m[2]);
}

test("every import stays on its floor or goes down: core on contract alone, nothing outside web/ imports web/", async () => {
  const violations: string[] = [];
  for (const [folder, floors] of Object.entries(FLOORS)) {
    for await (const file of sources(folder)) {
      for (const specifier of await importsOf(file)) {
        if (specifier.startsWith(".")) {
          const target = relative(ROOT, normalize(join(ROOT, dirname(file), specifier)));
          const top = target.split("/")[0];
          if (!floors.includes(top)) violations.push(`${file} → ${target}`);
        } else if (folder === "core" && NOT_IN_CORE.test(specifier)) {
          violations.push(`${file} → package ${specifier}`);
        } else if (folder === "contract") {
          const name = specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0];
          if (!CONTRACT_PACKAGES.includes(name)) violations.push(`${file} → package ${specifier}`);
        }
      }
    }
  }
  expect(violations).toEqual([]);
});

test("the check sees imports of every form, so a clean result means something", async () => {
  const sample = `import a from "../x/a.ts";\nimport type { B } from "../y/b.ts";\nexport { c } from "./c.ts";\n` +
    `const d = await import("../z/d.ts");\n// import e from "../no/e.ts";\n/* import f from "../no/f.ts" */\nimport "./side.css";`;
  const file = "tests/.imports-sample.ts";
  await Deno.writeTextFile(join(ROOT, file), sample);
  try {
    expect(await importsOf(file)).toEqual(["../x/a.ts", "../y/b.ts", "./c.ts", "../z/d.ts", "./side.css"]);
  } finally {
    await Deno.remove(join(ROOT, file));
  }
});

/** The files a file imports by relative path, as paths from the root (.ts and .tsx only). */
async function localImports(file: string) {
  return (await importsOf(file)).filter((specifier) => specifier.startsWith(".") && /\.tsx?$/.test(specifier))
    .map((specifier) => relative(ROOT, normalize(join(ROOT, dirname(file), specifier))));
}

test("no circle of imports among the server's files, nor among the SPA's", async () => {
  const graph = new Map<string, string[]>();
  for (const folder of [...Object.keys(FLOORS), "web/src"].filter((folder) => folder !== "web")) {
    for await (const file of sources(folder)) graph.set(file, await localImports(file));
  }
  // depth-first search; a file met again while still on the path closes a circle
  const circles: string[] = [];
  const state = new Map<string, "open" | "done">();
  const visit = (file: string, path: string[]) => {
    if (state.get(file) === "done") return;
    if (state.get(file) === "open") {
      circles.push([...path.slice(path.indexOf(file)), file].join(" → "));
      return;
    }
    state.set(file, "open");
    for (const target of graph.get(file) ?? []) visit(target, [...path, file]);
    state.set(file, "done");
  };
  for (const file of graph.keys()) visit(file, []);
  expect(circles).toEqual([]);
});
