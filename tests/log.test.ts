/*
 * The server's JSON log lines: an error that quotes a Bot API URL (grammY's network errors
 * do) is written without the bot's token; so is a message or a field that quotes it.
 */
import { expect, test } from "vitest";

test("an error quoting the Bot API URL is logged without the bot's token", async () => {
  const token = "123456789:AAFakeTokenForTheLogTest_0123456789";
  const script = `
    import { jsonLog } from "./core/log.ts";
    const error = new Error("request to https://api.telegram.org/bot${token}/sendMessage failed, reason: socket hang up");
    jsonLog("test")("error", "send failed", { error });
  `;
  const result = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--ext=ts", script],
    cwd: new URL("..", import.meta.url).pathname,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const line = new TextDecoder().decode(result.stderr).trim();
  const entry = JSON.parse(line.split("\n").at(-1)!);
  expect(entry).toMatchObject({ level: "error", service: "test", message: "send failed" });
  expect(entry.error.message).toBe("request to https://api.telegram.org/bot<token>/sendMessage failed, reason: socket hang up");
  expect(line).not.toContain(token);
});

test("a message or a field quoting the bot's token is logged without it", async () => {
  const token = "987654321:AAAnotherFakeToken-forTheMessage_42";
  const script = `
    import { jsonLog } from "./core/log.ts";
    const log = jsonLog("test");
    log("warn", "Telegram answered 502 for https://api.telegram.org/bot${token}/getUpdates", { url: "https://api.telegram.org/bot${token}/getMe", nested: { text: "token ${token} leaked" } });
    log("info", "plain ${token}");
  `;
  const result = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--ext=ts", script],
    cwd: new URL("..", import.meta.url).pathname,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const output = new TextDecoder().decode(result.stderr).trim();
  expect(output).not.toContain(token);
  expect(output).not.toContain(token.split(":")[1]);
  const [warn, info] = output.split("\n").map((line) => JSON.parse(line));
  expect(warn).toMatchObject({
    level: "warn",
    message: "Telegram answered 502 for https://api.telegram.org/bot<token>/getUpdates",
    url: "https://api.telegram.org/bot<token>/getMe",
    nested: { text: "token <token> leaked" },
  });
  expect(info).toMatchObject({ level: "info", message: "plain <token>" });
});
