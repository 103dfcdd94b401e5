/*
 * Where sign-in codes may go. Without SMTP_URL the code is written to the log, which is
 * fine on a developer's machine (loopback PUBLIC_URL) and never on a public server: there
 * the API and the worker refuse to start and say why, and the worker's mailer refuses to
 * log a code even if it runs anyway. compose.yaml, the public deployment, has no defaults
 * for the database password, the mail server or the https address.
 */
import { describe, expect, test } from "vitest";
import { readConfig } from "../../core/config.ts";
import type { Log } from "../../core/log.ts";
import { isLocalUrl, isLoopbackUrl, mailToLogProblem, sandboxProblem, startupProblems } from "../../core/startup_checks.ts";
import { createMailer } from "../../tasks/mailer.ts";

const root = new URL("../..", import.meta.url).pathname;

describe("the rule: the log is the mailbox only on a loopback PUBLIC_URL", () => {
  test("loopback addresses", () => {
    for (
      const url of [
        "http://localhost:8000",
        "http://LOCALHOST",
        "https://localhost",
        "http://127.0.0.1:8000",
        "http://127.1.2.3",
        "http://127.1",
        "http://[::1]:8000",
        "http://[0:0:0:0:0:0:0:1]",
      ]
    ) {
      expect(isLoopbackUrl(url), url).toBe(true);
    }
    for (
      const url of [
        "https://pressa.example.com",
        "http://192.168.1.5:8000",
        "http://10.0.0.1",
        "http://0.0.0.0:8000",
        "http://[::]:8000",
        "http://localhost.example.com",
        "http://127.0.0.1.nip.io",
        "http://128.0.0.1",
        "not a url",
        "",
      ]
    ) {
      expect(isLoopbackUrl(url), url).toBe(false);
    }
  });

  test("without SMTP_URL a public PUBLIC_URL is refused with the reason; a loopback one or SMTP_URL passes", () => {
    expect(startupProblems(readConfig({}))).toEqual([]); // the default is http://localhost:8000
    expect(startupProblems(readConfig({ PUBLIC_URL: "http://127.0.0.1:9000" }))).toEqual([]);
    expect(
      startupProblems(
        readConfig({ PUBLIC_URL: "https://pressa.example.com", SMTP_URL: "smtps://u:p@smtp.example.com" }),
      ),
    ).toEqual([]);
    expect(startupProblems(readConfig({ PUBLIC_URL: "http://localhost", SMTP_URL: "  " }))).toEqual([]);

    const problems = startupProblems(readConfig({ PUBLIC_URL: "https://pressa.example.com", SMTP_URL: " " }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain("SMTP_URL is not set");
    expect(problems[0]).toContain("https://pressa.example.com");
    expect(problems[0]).toMatch(/written to the log/);
    expect(problems[0]).toMatch(/Set SMTP_URL/);
    expect(mailToLogProblem({ publicUrl: "http://192.168.1.5:8000", smtpUrl: undefined })).toBe(
      problems[0].replace("https://pressa.example.com", "http://192.168.1.5:8000"),
    );
  });

  test("a PUBLIC_URL that is not an http(s) URL is refused too", () => {
    expect(startupProblems({ publicUrl: "pressa.example.com", smtpUrl: "smtp://x" })).toEqual([
      "PUBLIC_URL is not a URL: pressa.example.com",
    ]);
    expect(startupProblems({ publicUrl: "ftp://pressa.example.com", smtpUrl: "smtp://x" })[0]).toMatch(
      /must start with http/,
    );
  });
});

test("a blank PORT (PORT= in an env file) is the default 8000, with the PUBLIC_URL made from it; a word is refused", () => {
  for (const PORT of [undefined, "", "  "]) {
    const config = readConfig({ PORT });
    expect([config.port, config.publicUrl]).toEqual([8000, "http://localhost:8000"]);
  }
  expect(readConfig({ PORT: "8080" }).port).toBe(8080);
  expect(() => readConfig({ PORT: "eighty" })).toThrow(/PORT must be a port number/);
});

describe("the Telegram sandbox (npm run demo) runs only on a local PUBLIC_URL", () => {
  test("loopback and private addresses are local; anything the internet reaches is not", () => {
    for (const url of ["http://localhost:8000", "http://127.0.0.1:8000", "http://[::1]:8000", "http://10.1.2.3", "http://172.20.0.5:8000", "http://192.168.1.5:8000", "http://[fd00::5]", "http://pressa.localhost"]) {
      expect(isLocalUrl(url), url).toBe(true);
    }
    for (const url of ["https://pressa.example.com", "http://8.8.8.8", "http://172.32.0.1", "http://192.169.0.1", "http://[2001:db8::1]", "http://0.0.0.0", "not a url"]) {
      expect(isLocalUrl(url), url).toBe(false);
    }
  });

  test("every process refuses the sandbox's Telegram with a public PUBLIC_URL, and says why", () => {
    const sandbox = { PRESSA_SANDBOX_URL: "http://127.0.0.1:9999", SMTP_URL: "smtps://u:p@smtp.example.com" };
    expect(startupProblems(readConfig({ ...sandbox, PUBLIC_URL: "http://localhost:8000" }))).toEqual([]);
    expect(startupProblems(readConfig({ ...sandbox, PUBLIC_URL: "http://192.168.1.5:8000" }))).toEqual([]);
    const problems = startupProblems(readConfig({ ...sandbox, PUBLIC_URL: "https://pressa.example.com" }));
    expect(problems).toEqual([sandboxProblem("https://pressa.example.com")]);
    expect(problems[0]).toContain("PUBLIC_URL (https://pressa.example.com) is public");
    expect(problems[0]).toMatch(/anyone signed in can act as the channel's admin/);
    // without the sandbox the same address is fine
    expect(startupProblems(readConfig({ SMTP_URL: sandbox.SMTP_URL, PUBLIC_URL: "https://pressa.example.com" }))).toEqual([]);
  });
});

describe("the worker's mailer", () => {
  const code = "482913";
  const mail = { to: "a@example.com", subject: `Pressa: код для входа ${code}`, text: `Ваш код: ${code}` };

  test("with a loopback PUBLIC_URL and no SMTP_URL it writes the mail to the log", async () => {
    const lines: unknown[] = [];
    const log: Log = (level, message, fields) => lines.push({ level, message, fields });
    await createMailer(readConfig({ PUBLIC_URL: "http://localhost:8000" }), log).send(mail);
    expect(JSON.stringify(lines)).toContain(code);
  });

  test("with a public PUBLIC_URL and no SMTP_URL it refuses, and the code reaches no log", async () => {
    const lines: unknown[] = [];
    const log: Log = (level, message, fields) => lines.push({ level, message, fields });
    const sending = createMailer(readConfig({ PUBLIC_URL: "https://pressa.example.com" }), log).send(mail);
    const error: Error = await sending.then(() => new Error("sent"), (err) => err);
    expect(error.message).toMatch(/^e-mail not sent: SMTP_URL is not set/);
    expect(error.message).not.toContain(code);
    expect(lines).toEqual([]);
  });
});

describe("the processes refuse to start with a public PUBLIC_URL and no SMTP_URL", () => {
  for (const [name, script] of [["API", "main/api.ts"], ["worker", "main/worker.ts"]] as const) {
    test(`${script} exits with code 2 and says why`, async () => {
      const result = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", script],
        cwd: root,
        clearEnv: true,
        env: {
          ...Object.fromEntries(
            Object.entries(Deno.env.toObject()).filter(([key]) => !["SMTP_URL", "PUBLIC_URL"].includes(key)),
          ),
          DATABASE_URL: "postgres://nobody:nothing@127.0.0.1:1/none",
          PUBLIC_URL: "https://pressa.example.com",
          PORT: "0",
        },
        stdin: "null",
        stdout: "null",
        stderr: "piped",
      }).output();
      expect(result.code).toBe(2);
      const lines = new TextDecoder().decode(result.stderr).trim().split("\n").map((line) =>
        JSON.parse(line)
      );
      const refusal = lines.find((line) => line.level === "error");
      expect(refusal.message).toMatch(
        new RegExp(
          `^the ${name} refuses to start: SMTP_URL is not set and PUBLIC_URL \\(https://pressa\\.example\\.com\\) is not a loopback address`,
        ),
      );
      expect(refusal.message).toContain("Set SMTP_URL");
      // it stopped before listening or starting work
      expect(lines.some((line) => /listening|worker started/.test(line.message))).toBe(false);
    });
  }
});

describe("compose.yaml, the public deployment", () => {
  const compose = Deno.readTextFileSync(`${root}compose.yaml`);
  // every ${VAR…} reference with what follows its name
  const references = [...compose.matchAll(/\$\{([A-Z_][A-Z0-9_]*)([^}]*)\}/g)].map(([, name, rest]) => ({
    name,
    rest,
  }));

  test("POSTGRES_PASSWORD, PRESSA_APP_PASSWORD, SMTP_URL and PUBLIC_URL are required: `:?` with a message, never a `:-` default", () => {
    for (const name of ["POSTGRES_PASSWORD", "PRESSA_APP_PASSWORD", "SMTP_URL", "PUBLIC_URL"]) {
      const uses = references.filter((reference) => reference.name === name);
      expect(uses.length, name).toBeGreaterThan(0);
      for (const { rest } of uses) {
        expect(rest, name).toMatch(/^:\?\s*\S/);
        expect(rest, name).not.toContain(":-");
      }
      // nor a bare $VAR or a default any other way
      expect(compose).not.toMatch(new RegExp(`(?<!\\$)\\$${name}\\b|\\$\\{${name}(-|:-|:\\+|\\})`));
    }
    expect(references.find((reference) => reference.name === "PUBLIC_URL")!.rest).toContain("https://");
    // the owner's password is the database's and migrate's only; the app's containers log in
    // as pressa_app (docs/trust-model.md "Least privilege"), whose password migrate gives it
    expect(compose.match(/\$\{POSTGRES_PASSWORD/g)).toHaveLength(2);
    const appBlock = compose.slice(compose.indexOf("x-app:"), compose.indexOf("services:"));
    expect(appBlock).not.toContain("POSTGRES_PASSWORD");
    expect(appBlock).toContain("DATABASE_URL: postgres://pressa_app:${PRESSA_APP_PASSWORD:?");
    expect(compose.match(/\$\{PRESSA_APP_PASSWORD/g)).toHaveLength(2);
  });

  test("the app's containers refuse a PUBLIC_URL that is not https:// (the entrypoint's check, run by sh)", async () => {
    const line = compose.split("\n").find((l) => l.includes('case "$$PUBLIC_URL"'))!;
    expect(line).toBeDefined();
    // YAML single-quoted scalar; compose turns $$ into $
    const script = line.trim().replace(/^- '/, "").replace(/'$/, "").replaceAll("''", "'").replaceAll(
      "$$",
      "$",
    );
    async function run(publicUrl: string) {
      const result = await new Deno.Command("sh", {
        args: ["-c", script, "pressa", "echo", "started"],
        env: { PUBLIC_URL: publicUrl },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes).trim();
      return { code: result.code, stdout: text(result.stdout), stderr: text(result.stderr) };
    }
    expect(await run("https://pressa.example.com")).toEqual({ code: 0, stdout: "started", stderr: "" });
    for (const url of ["http://pressa.example.com", "", "pressa.example.com"]) {
      const refused = await run(url);
      expect(refused.code, url).toBe(2);
      expect(refused.stdout, url).toBe("");
      expect(refused.stderr, url).toBe(
        `Pressa refuses to start: PUBLIC_URL must be the https:// address users open, got "${url}"`,
      );
    }
    // both instances get that entrypoint (the x-app anchor); migrate needs no PUBLIC_URL
    expect(compose.match(/<<: \*app/g)).toHaveLength(2);
  });

  /** A service's lines, up to the next top-level key or service. */
  const service = (name: string) => compose.split(`\n  ${name}:\n`)[1].split(/\n {0,2}[a-z0-9_]+:\n/)[0];

  test("only the proxy is published; the instances are reached on the proxy's network, and trust X-Forwarded-For from it alone", () => {
    // what both instances share (the x-app anchor), then each one's own lines
    const instance = compose.slice(compose.indexOf("x-app:"), compose.indexOf("\nservices:"));
    expect(instance).not.toMatch(/^\s+ports:|8000:8000/m);
    expect(instance).toMatch(/networks: \[default, edge\]/);
    for (const name of ["app1", "app2"]) expect(service(name), name).not.toMatch(/^\s+ports:|networks:/m);
    expect(service("proxy")).toMatch(/networks: \[edge\]/);
    expect(service("proxy")).toMatch(/"443:443"/);
    for (const name of ["db", "migrate"]) expect(service(name), name).not.toMatch(/^\s+ports:|edge/m);
    // TRUST_PROXY is the edge network's subnet, whatever EDGE_SUBNET says
    const trusted = /TRUST_PROXY: (\S+)/.exec(instance)![1];
    const subnet = /edge:\n\s+ipam:\n\s+config:\n\s+- subnet: (\S+)/.exec(compose)![1];
    expect(trusted).toBe(subnet);
    expect(readConfig({ TRUST_PROXY: /:-([^}]+)\}/.exec(trusted)![1] }).trustedProxies).toHaveLength(1);
  });
});
