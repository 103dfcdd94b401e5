/* The repository's own source files, for tests that read the tree (imports, literals with one home). */
import { dirname, join, normalize } from "node:path";

export const ROOT = normalize(join(dirname(new URL(import.meta.url).pathname), "../.."));

/** Paths (from the root) of the files under `dir` whose names match `name`, outside node_modules and builds. */
export async function* sources(dir: string, name = /\.(ts|tsx)$/): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(join(ROOT, dir))) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory && !["node_modules", "dist"].includes(entry.name)) yield* sources(path, name);
    else if (entry.isFile && name.test(entry.name)) yield path;
  }
}
