/* PRESSA_PROCESSES: what `npm start` runs on one instance of several sharing a database. */
import { expect, test } from "vitest";
import { readConfig } from "../core/config.ts";

const processes = (value?: string) => [...readConfig({ PRESSA_PROCESSES: value }).processes].sort();

test("unset or blank, an instance runs all three", () => {
  expect(processes(undefined)).toEqual(["api", "bot", "worker"]);
  expect(processes(" ")).toEqual(["api", "bot", "worker"]);
});

test("a comma list picks the instance's share, in any case and spacing", () => {
  expect(processes("api,worker")).toEqual(["api", "worker"]);
  expect(processes(" Worker ")).toEqual(["worker"]);
  expect(processes("bot, api")).toEqual(["api", "bot"]);
});

test("a name we do not know stops the start instead of running nothing or everything", () => {
  expect(() => processes("api,wroker")).toThrow(/PRESSA_PROCESSES must be a comma list of api, worker, bot; got "api,wroker"/);
  expect(() => processes(",")).toThrow(/PRESSA_PROCESSES/);
});
