import { expect, test } from "vitest";
import { safeLogFields } from "../tasks/worker.ts";

test("worker log lines never carry a job's payload (a sign-in code lives there until mailed)", () => {
  const fields = safeLogFields({
    job: { id: "7", task_identifier: "sign_in_codes__send", attempts: 1, payload: { email: "a@b.c", code: "123456" } },
    duration: 3,
  });
  expect(JSON.stringify(fields)).not.toContain("123456");
  expect(fields).toEqual({ job: { id: "7", task: "sign_in_codes__send", attempts: 1 }, duration: 3 });
});
