/*
 * The server's JSON log lines: an error that quotes a Bot API URL (grammY's network errors
 * do) is written without the bot's token.
 */
import { expect, test } from "vitest";

test("an error quoting the Bot API URL is logged without the bot's token", async () => {
  const token = "123456789:AAFakeTokenForTheLogTest_0123456789";
  const script = `
    import { jsonLog } from "./api/log.ts";
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
