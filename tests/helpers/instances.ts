/*
 * Instances of the product as an operator runs them behind a load balancer: each one is
 * `npm start` (scripts/start.ts) in a process of its own, PRESSA_PROCESSES choosing its
 * share, all on one PostgreSQL through DATABASE_URL. Used by
 * tests/publishing/two_instances.test.ts and bench/scaleout.ts.
 */
import { freePort } from "../../scripts/postgres.ts";
import { answerOf } from "./answer.ts";

const root = new URL("../..", import.meta.url).pathname;

/** What a child started with piped stdout and stderr writes, both together, as it comes. */
export function outputOf(child: Deno.ChildProcess) {
  const decoder = new TextDecoder();
  const collected = { text: "", done: Promise.resolve() };
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) collected.text += decoder.decode(chunk, { stream: true });
  };
  collected.done = Promise.all([drain(child.stdout), drain(child.stderr)]).then(() => {});
  return collected;
}

export type Instance = Awaited<ReturnType<typeof startInstance>>;

/**
 * Starts `npm start` with `env` (DATABASE_URL and the rest) on a free port and waits until
 * its output shows every line of `ready` (by default the API listening and the worker
 * started). Its log is kept in memory for a failing test to show.
 */
export async function startInstance(name: string, env: Record<string, string>, ready = ["listening on", "worker started"]) {
  const port = await freePort();
  const dataDir = await Deno.makeTempDir({ prefix: `pressa-${name}-` });
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "scripts/start.ts"],
    cwd: root,
    env: { PORT: String(port), DATA_DIR: dataDir, NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const output = outputOf(child);
  let exited = false;
  child.status.then(() => (exited = true));
  const deadline = Date.now() + 90_000;
  while (!ready.every((line) => output.text.includes(line))) {
    if (exited || Date.now() > deadline) {
      if (!exited) child.kill("SIGKILL");
      await child.status;
      throw new Error(`instance ${name} did not start:\n${output.text.slice(-4000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    name,
    baseUrl: `http://127.0.0.1:${port}`,
    pid: child.pid,
    output: () => output.text,
    /** SIGTERM, as an orchestrator stops a container: running jobs finish, then it exits. */
    async stop() {
      if (!exited) child.kill("SIGTERM");
      await child.status;
      await output.done;
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    },
  };
}

/** A load balancer: each request to the next backend in turn; who answered what is kept. */
export function roundRobin() {
  const backends: string[] = [];
  const answered: { backend: string; path: string; status: number }[] = [];
  let next = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const backend = backends[next++ % backends.length];
    const url = new URL(request.url);
    const body = request.method === "GET" ? undefined : await request.arrayBuffer();
    const response = await fetch(backend + url.pathname + url.search, { method: request.method, headers: request.headers, body });
    answered.push({ backend, path: url.pathname, status: response.status });
    return new Response(await response.arrayBuffer(), { status: response.status, headers: response.headers });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, backends, answered, close: () => server.shutdown() };
}

/** A client of one instance's API, as a browser or script would call it over HTTP. */
export function apiClient(baseUrl: string) {
  return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(baseUrl + path, {
      method,
      headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return await answerOf(res);
  };
}
