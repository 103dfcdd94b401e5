/* Builds the SPA with Vite (on Node) when web/dist is missing or older than its sources. */
import { join } from "node:path";
import type { Log } from "../core/log.ts";

async function newestMtime(dir: string): Promise<number> {
  let newest = 0;
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) newest = Math.max(newest, await newestMtime(path));
    else newest = Math.max(newest, (await Deno.stat(path)).mtime?.getTime() ?? 0);
  }
  return newest;
}

export async function buildWebIfStale(root: string, log: Log) {
  let built = 0;
  try {
    built = (await Deno.stat(join(root, "web/dist/index.html"))).mtime?.getTime() ?? 0;
  } catch { /* not built */ }
  const sources = Math.max(
    await newestMtime(join(root, "web/src")),
    await newestMtime(join(root, "contract")),
    (await Deno.stat(join(root, "web/index.html"))).mtime?.getTime() ?? 0,
  );
  if (built > sources) return;
  log("info", "building the web app (vite build)");
  await buildWeb(root);
}

export async function buildWeb(root: string) {
  const status = await new Deno.Command("node", {
    args: [join(root, "node_modules/vite/bin/vite.js"), "build", "--config", join(root, "web/vite.config.ts"), "--logLevel", "warn"],
    cwd: root,
    stdin: "null",
    // a build started from inside vitest inherits NODE_ENV=test, and Vite then bundles React's
    // development build (60 kB more, and not what users get): the build is always production's
    env: { NODE_ENV: "production" },
  }).spawn().status;
  if (!status.success) throw new Error("vite build failed");
}
