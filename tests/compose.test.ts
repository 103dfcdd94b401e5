/*
 * The image and compose.yaml, read as text (no container engine runs here): what they set
 * is what docs/operating.md documents and core/config.ts reads, the image runs as a user who is not
 * root and checks its own health, and compose's layout is the one docs/scaling.md
 * describes: two api+worker instances behind the proxy, the bot by webhook, the app's
 * containers without the database owner's password.
 */
import { describe, expect, test } from "vitest";
import { readConfig } from "../core/config.ts";

const root = new URL("..", import.meta.url).pathname;
const read = (path: string) => Deno.readTextFileSync(`${root}${path}`);
const compose = read("compose.yaml");
const dockerfile = read("Dockerfile");
const operating = read("docs/operating.md");

/** The variables docs/operating.md's "Configuration" table documents (the first cell's `NAME`s). */
const documented = new Set(
  operating.split("\n## Configuration")[1].split("\n## ")[0].split("\n")
    .filter((line) => line.startsWith("| `"))
    .flatMap((line) => [...line.split("|")[1].matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map(([, name]) => name)),
);
/** The variables core/config.ts reads. */
const configSource = read("core/config.ts");
const readByConfig = new Set([
  ...[...configSource.matchAll(/\benv\.([A-Z][A-Z0-9_]*)/g)].map(([, name]) => name),
  ...[...configSource.matchAll(/variable: "([A-Z][A-Z0-9_]*)"/g)].map(([, name]) => name),
]);

type Block = { name: string; lines: string[] };
/** compose.yaml's top-level blocks (x-app, networks, …) and its services, each with its lines. */
function composeBlocks(): Block[] {
  const blocks: Block[] = [];
  let inServices = false;
  for (const line of compose.split("\n")) {
    if (line.startsWith("#") || line.trim() === "") continue;
    const top = line.match(/^([a-z][\w-]*):/);
    const service = inServices && line.match(/^ {2}([a-z][\w-]*):\s*$/);
    if (top) {
      inServices = top[1] === "services";
      blocks.push({ name: top[1], lines: [] });
    } else if (service) blocks.push({ name: service[1], lines: [] });
    else blocks.at(-1)!.lines.push(line);
  }
  return blocks;
}
const blocks = composeBlocks();
const block = (name: string) => blocks.find((b) => b.name === name)!;
/** Blocks that run Pressa's image: the shared x-app block, and services built here or merging it. */
const ourBlocks = blocks.filter((b) => b.name === "x-app" || b.lines.some((l) => /^\s+(build: \.|<<: \*app)\s*$/.test(l)));
/** The app's instances (what the proxy sends users to), as opposed to the one-off migrate. */
const instances = ourBlocks.filter((b) => b.lines.some((l) => /<<: \*app/.test(l)));
/** `NAME: value` under an environment mapping (compose's keys are lowercase, variables are not). */
const environment = (b: Block) =>
  new Map(b.lines.map((l) => l.match(/^\s+([A-Z][A-Z0-9_]*):\s*(.*)$/)).filter((m) => m !== null).map((m) => [m![1], m![2]]));
/** An instance's environment: x-app's, then its own on top. */
const instanceEnvironment = (b: Block) => new Map([...environment(block("x-app")), ...environment(b)]);

/** The variables the Dockerfile's ENV lines set; PATH is the shell's search path, not a setting of ours. */
const dockerfileEnv = dockerfile.split("\n").filter((l) => l.startsWith("ENV ")).flatMap((l) =>
  [...l.slice(4).matchAll(/([A-Z][A-Z0-9_]*)=/g)].map(([, name]) => name)
).filter((name) => name !== "PATH");

describe("every variable the image and compose set is one docs/operating.md documents and the code reads", () => {
  test("the lists read from the files are not empty (so the checks below can fail)", () => {
    expect(documented.size).toBeGreaterThan(15);
    expect(readByConfig).toContain("PRESSA_PROCESSES");
    expect(ourBlocks.map((b) => b.name)).toEqual(expect.arrayContaining(["x-app", "migrate"]));
    expect(dockerfileEnv).toEqual(expect.arrayContaining(["PORT", "DATA_DIR"]));
  });

  test("compose's app and migrate containers", () => {
    const names = new Set(ourBlocks.flatMap((b) => [...environment(b).keys()]));
    expect(names.size).toBeGreaterThan(10);
    for (const name of names) {
      expect(documented, `${name} is set in compose.yaml but not in docs/operating.md's Configuration table`).toContain(name);
      expect(readByConfig, `${name} is set in compose.yaml but core/config.ts never reads it`).toContain(name);
    }
  });

  test("the Dockerfile's ENV", () => {
    for (const name of dockerfileEnv) {
      expect(documented, `${name} is set in the Dockerfile but not in docs/operating.md's Configuration table`).toContain(name);
      expect(readByConfig, `${name} is set in the Dockerfile but core/config.ts never reads it`).toContain(name);
    }
  });

  test("what compose reads from .env is a documented setting or named in compose's own opening comment", () => {
    const header = compose.slice(0, compose.indexOf("\nx-app:"));
    const fromDotEnv = new Set([...compose.matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)].map(([, name]) => name));
    for (const name of fromDotEnv) {
      expect(documented.has(name) || header.includes(name), `${name}: compose reads it from .env, and neither docs/operating.md's table nor compose's comment says what it is`).toBe(true);
    }
    // every one it requires (`:?`) is in the comment's list of what to put in .env
    const dotEnvList = header.match(/Set secrets in a \.env file beside this one \(([^)]*)\)/)![1];
    for (const [, name] of compose.matchAll(/\$\{([A-Z][A-Z0-9_]*):\?/g)) expect(dotEnvList, name).toContain(name);
  });
});

describe("the image", () => {
  const instructions = dockerfile.split("\n").filter((l) => /^[A-Z]+ /.test(l));
  const finalStage = instructions.slice(instructions.findLastIndex((l) => l.startsWith("FROM ")));

  test("runs as a user who is not root, from before its command on", () => {
    const users = finalStage.filter((l) => l.startsWith("USER "));
    expect(users.length).toBeGreaterThan(0);
    const user = users.at(-1)!.slice(5).trim();
    expect(user).not.toMatch(/^(root|0)(:|$)/);
    expect(finalStage.indexOf(users.at(-1)!)).toBeLessThan(finalStage.findIndex((l) => l.startsWith("CMD ")));
    // the user is made in the image and owns the data folder
    expect(dockerfile).toMatch(new RegExp(`useradd [^\\n]*\\b${user}\\b`));
    expect(dockerfile).toMatch(new RegExp(`chown ${user}:${user} /data`));
  });

  test("checks its health at the API's health endpoint", () => {
    const at = dockerfile.indexOf("\nHEALTHCHECK ");
    expect(at).toBeGreaterThan(0);
    const check = dockerfile.slice(at, dockerfile.indexOf("\nCMD ", at));
    expect(check).toContain("/api/health");
    expect(read("api/app.ts")).toContain('api.route("/health"');
  });

  test("runs `npm start`'s script, so PRESSA_PROCESSES chooses the roles", () => {
    expect(finalStage.at(-1)).toBe('CMD ["deno", "run", "-A", "scripts/start.ts"]');
    expect(read("scripts/start.ts")).toContain("config.processes.has(");
  });
});

describe("compose's layout", () => {
  test("two instances, each api+worker, behind the proxy, which sends users to both", () => {
    expect(instances.map((b) => b.name)).toHaveLength(2);
    for (const b of instances) {
      const processes = readConfig({ PRESSA_PROCESSES: instanceEnvironment(b).get("PRESSA_PROCESSES") }).processes;
      expect([...processes].sort(), b.name).toEqual(["api", "worker"]);
      expect(b.lines.join("\n") + block("x-app").lines.join("\n")).toContain('command: ["deno", "run", "-A", "scripts/start.ts"]');
    }
    const proxy = block("proxy").lines.map((l) => l.trim());
    const upstreams = proxy.flatMap((l, i) => (l === "- --to" ? [proxy[i + 1].slice(2)] : []));
    expect(upstreams.sort()).toEqual(instances.map((b) => `${b.name}:8000`).sort());
  });

  test("the bot by webhook: every instance has the secret, and nothing polls", () => {
    for (const b of instances) expect(instanceEnvironment(b).get("TELEGRAM_WEBHOOK_SECRET"), b.name).toMatch(/^\$\{TELEGRAM_WEBHOOK_SECRET:\?/);
    expect(compose).not.toMatch(/deno", "task", "bot"|bot\/main\.ts/);
  });

  test("the instances log in as pressa_app and never get the owner's URL; only migrate does", () => {
    for (const b of instances) {
      const env = instanceEnvironment(b);
      expect(env.get("DATABASE_URL"), b.name).toMatch(/^postgres:\/\/pressa_app:/);
      expect(env.has("DATABASE_OWNER_URL"), b.name).toBe(false);
    }
    expect(environment(block("migrate")).get("DATABASE_OWNER_URL")).toMatch(/^postgres:\/\/pressa:\$\{POSTGRES_PASSWORD:\?/);
  });
});
