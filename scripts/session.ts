/*
 * A terminal's Ctrl-C sends SIGINT to the whole foreground process group. Children that
 * share `npm start`'s group would each start stopping on their own — PostgreSQL first,
 * cutting the worker's connections while its jobs still run. Started in a session of their
 * own (setsid), they hear only what `npm start` tells them, in the order it chooses.
 */
import { join } from "node:path";

// Both are util-linux; where they are missing (macOS) argv runs as is, as it always did.
const setsid = findOnPath("setsid");
const setpriv = findOnPath("setpriv");

/** argv run in a new session. */
export function inOwnSession(argv: string[]): string[] {
  // setsid forks only when its caller leads a process group; a child we spawn never does
  // (it joins our group), so setsid execs argv and the PID we hold is the program's own.
  return setsid ? [setsid, ...argv] : argv;
}

/**
 * argv that gets `signal` when its parent dies without stopping it (kill -9, a crash): a
 * child shielded from Ctrl-C must not outlive us unseen, least of all a database whose
 * lock would then refuse the next start. Wrap the program itself, inside any change of
 * user, which clears this signal. The kernel watches the spawning thread: Deno spawns from
 * the JS thread, which lives as long as the program (or the Worker) that started the child.
 */
export function endsWithParent(argv: string[], signal: "SIGINT" | "SIGTERM"): string[] {
  return setpriv ? [setpriv, `--pdeathsig=${signal}`, ...argv] : argv;
}

function findOnPath(program: string) {
  for (const dir of (Deno.env.get("PATH") ?? "/usr/bin:/bin").split(":")) {
    const path = join(dir, program);
    try {
      if (Deno.statSync(path).isFile) return path;
    } catch { /* not here */ }
  }
  return undefined;
}
