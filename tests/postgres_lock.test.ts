/*
 * After an unclean stop (power loss, kill -9, a container restart) postmaster.pid may name a
 * PID that now belongs to an unrelated process: the embedded server must start anyway, and
 * leave that process alone. A server still running on the cluster keeps its lock.
 */
import postgres from "postgres";
import { afterAll, expect, test } from "vitest";
import { startEmbeddedPostgres } from "../scripts/postgres.ts";

const dataDir = await Deno.makeTempDir({ prefix: "pressa-lock-" });
await Deno.chmod(dataDir, 0o755); // reachable by the postgres system user when run as root
afterAll(() => Deno.remove(dataDir, { recursive: true }).catch(() => {}));

function startLogged() {
  const messages: string[] = [];
  return { messages, started: startEmbeddedPostgres(dataDir, (m) => messages.push(m)) };
}

async function answers(adminUrl: string) {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    return (await sql`select 1 as one`)[0].one;
  } finally {
    await sql.end();
  }
}

/** A lock as an unclean stop leaves it: PostgreSQL's own lines, naming `pid`, owned as it owns them. */
async function writeLeftoverLock(pgData: string, lockText: string, pid: number) {
  const lockFile = `${pgData}/postmaster.pid`;
  await Deno.writeTextFile(lockFile, lockText.replace(/^\d+\n/, `${pid}\n`), { mode: 0o600 });
  const owner = await Deno.stat(pgData);
  if (Deno.uid() === 0) await Deno.chown(lockFile, owner.uid, owner.gid);
}

test("a lock naming a live process that is not this cluster's server is removed, and the server starts", async () => {
  const first = await startEmbeddedPostgres(dataDir, () => {});
  const pgData = `${first.clusterDir}/data`;
  const lockText = await Deno.readTextFile(`${pgData}/postmaster.pid`);
  await first.stop();

  // PostgreSQL honours only a PID it may signal, so as root the stranger runs as its user.
  const sleep = ["sleep", "60"];
  const argv = Deno.uid() === 0
    ? ["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", ...sleep]
    : sleep;
  const stranger = new Deno.Command(argv[0], { args: argv.slice(1), stdin: "null" }).spawn();
  let strangerExited = false;
  stranger.status.then(() => (strangerExited = true));
  try {
    await writeLeftoverLock(pgData, lockText, stranger.pid);
    const { messages, started } = startLogged();
    const second = await started;
    try {
      expect(await answers(second.adminUrl)).toBe(1);
      const removed =
        `removed a stale PostgreSQL lock file .*postmaster\\.pid: PID ${stranger.pid} .*\\(it runs sleep\\)`;
      expect(messages.join("\n")).toMatch(new RegExp(removed));
      const lockPid = (await Deno.readTextFile(`${pgData}/postmaster.pid`)).split("\n")[0];
      expect(lockPid).not.toBe(String(stranger.pid));
    } finally {
      await second.stop();
    }
    await new Promise((r) => setTimeout(r, 100));
    expect(strangerExited).toBe(false); // untouched by the start and the stop
  } finally {
    stranger.kill("SIGKILL");
    await stranger.status;
  }
});

test("a server still running on the cluster keeps its lock: a second start fails and says why", async () => {
  const running = await startEmbeddedPostgres(dataDir, () => {});
  try {
    const { messages, started } = startLogged();
    await expect(started).rejects.toThrow(/lock file "postmaster.pid" already exists/);
    expect(messages.join("\n")).toMatch(/PostgreSQL \(PID \d+\) is still running on .*: another npm start/);
    expect(await answers(running.adminUrl)).toBe(1);
  } finally {
    await running.stop();
  }
});
