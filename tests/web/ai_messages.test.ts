/*
 * Every AI failure the API can answer is a fixed sentence with a Russian text, so a person
 * using the interface in Russian never reads a provider's English. The sentences are read
 * from the code that raises them, so a new one without a translation fails here.
 */
import { expect, test } from "vitest";
import ru from "../../web/src/i18n/ru.json" with { type: "json" };
import { AI_NOT_CONFIGURED } from "../../core/ai/client.ts";

const SOURCES = ["core/ai/client.ts", "api/routes/ai.ts"];

test("each AI error message has a Russian text", async () => {
  const messages = new Set<string>([AI_NOT_CONFIGURED]);
  for (const file of SOURCES) {
    const source = await Deno.readTextFile(new URL(`../../${file}`, import.meta.url));
    for (const match of source.matchAll(/new ApiError\(\s*\d+,\s*"ai\.\w+",\s*(["`])(.*?)\1/gs)) {
      expect(match[1], `${file}: an AI message built from parts cannot be translated: ${match[2]}`).toBe('"');
      messages.add(match[2]);
    }
  }
  expect(messages.size).toBeGreaterThan(8);
  const dictionary = ru as Record<string, string>;
  for (const message of messages) {
    expect(dictionary[message], message).toBeTruthy();
    expect(dictionary[message]).not.toBe(message);
  }
});

test("each limit the SQL raises (AI, sign-in, generation) has a Russian text", async () => {
  const dictionary = ru as Record<string, string>;
  const messages = new Set<string>();
  for await (const entry of Deno.readDir(new URL("../../sql/migrations/committed/", import.meta.url))) {
    const source = await Deno.readTextFile(new URL(`../../sql/migrations/committed/${entry.name}`, import.meta.url));
    for (const match of source.matchAll(/raise exception '([^'%]+)'\s+using errcode = '(AILIM|GJRUN|RATEL)'/g)) messages.add(match[1]);
  }
  expect(messages.size).toBeGreaterThanOrEqual(4);
  for (const message of messages) {
    expect(dictionary[message], message).toBeTruthy();
    expect(dictionary[message]).not.toBe(message);
  }
});
