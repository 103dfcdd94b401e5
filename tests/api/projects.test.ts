import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";

let stack: Stack;
let alice: string;
let bob: string;
beforeAll(async () => {
  stack = await startStack();
  alice = (await stack.signIn(uniqueEmail("alice"))).cookie;
  bob = (await stack.signIn(uniqueEmail("bob"))).cookie;
});
afterAll(() => stack.close());

const valid = { name: "Morning digest", adminHandle: "@channel_admin" };

describe("projects", () => {
  test("create applies the spec's defaults and stores the handle without @", async () => {
    const res = await stack.call("POST", "/api/projects", valid, alice);
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      name: "Morning digest",
      description: "",
      adminHandle: "channel_admin",
      timezone: "Europe/Moscow",
      language: "ru",
      sources: "",
      writingStyle: { formality: 2, seriousness: 2, emojiUsage: 1 },
    });
    expect(typeof res.json.id).toBe("number");
    expect(new Date(res.json.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  test("create keeps every field given, writingStyle as object or JSON text", async () => {
    const res = await stack.call("POST", "/api/projects", {
      name: "  Tech news  ",
      description: "Daily gadgets",
      writingStyle: JSON.stringify({ formality: 4, seriousness: 0, emojiUsage: 2 }),
      adminHandle: "tech_admin",
      timezone: "Asia/Tokyo",
      sources: "https://example.com/feed\nhttps://example.org",
    }, alice);
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      name: "Tech news",
      description: "Daily gadgets",
      writingStyle: { formality: 4, seriousness: 0, emojiUsage: 2 },
      timezone: "Asia/Tokyo",
      sources: "https://example.com/feed\nhttps://example.org",
    });
  });

  test.each([
    [{ adminHandle: "valid_admin" }, "Project name is required", "projects.nameRequired"],
    [{ name: "   ", adminHandle: "valid_admin" }, "Project name is required", "projects.nameRequired"],
    [{ name: "X" }, "Admin's Telegram handle is required", "projects.adminHandleRequired"],
    [{ name: "X", adminHandle: "" }, "Admin's Telegram handle is required", "projects.adminHandleRequired"],
    [{ name: "X", adminHandle: "@abcd" }, "Invalid Telegram handle format", "projects.adminHandleInvalid"],
    [{ name: "X", adminHandle: "bad-handle" }, "Invalid Telegram handle format", "projects.adminHandleInvalid"],
    [{ name: "X", adminHandle: "valid_admin", timezone: "Mars/Olympus" }, "Choose a timezone from the list", "projects.timezoneInvalid"],
    [
      { name: "X", adminHandle: "valid_admin", writingStyle: { formality: 5, seriousness: 2, emojiUsage: 1 } },
      "Formality must be between 0 and 4",
      "projects.formalityOutOfRange",
    ],
    [{ name: "X", adminHandle: "valid_admin", writingStyle: "{oops" }, "Invalid writing style", "projects.writingStyleInvalid"],
    [{ name: "X", adminHandle: "valid_admin", language: "de" }, "Language must be ru or en", "projects.languageInvalid"],
    [{ name: "x".repeat(101), adminHandle: "valid_admin" }, "Project name must be at most 100 characters", "projects.nameTooLong"],
  ])("create refuses %j with '%s' and stores nothing", async (payload, message, code) => {
    const before = await stack.call("GET", "/api/projects", undefined, alice);
    const res = await stack.call("POST", "/api/projects", payload, alice);
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ message, code });
    const after = await stack.call("GET", "/api/projects", undefined, alice);
    expect(after.json).toHaveLength(before.json.length);
  });

  test("list holds only the user's projects, newest first", async () => {
    await stack.call("POST", "/api/projects", { ...valid, name: "Older" }, bob);
    await stack.call("POST", "/api/projects", { ...valid, name: "Newer" }, bob);
    const res = await stack.call("GET", "/api/projects", undefined, bob);
    expect(res.status).toBe(200);
    expect(res.json.map((p: { name: string }) => p.name)).toEqual(["Newer", "Older"]);
    const aliceList = await stack.call("GET", "/api/projects", undefined, alice);
    expect(aliceList.json.some((p: { name: string }) => p.name === "Newer")).toBe(false);
  });

  test("get, patch (writingStyle as JSON text, language) and delete", async () => {
    const created = (await stack.call("POST", "/api/projects", valid, alice)).json;
    const got = await stack.call("GET", `/api/projects/${created.id}`, undefined, alice);
    expect(got.json).toEqual(created);

    const patched = await stack.call("PATCH", `/api/projects/${created.id}`, {
      name: "Renamed",
      writingStyle: '{"formality":0,"seriousness":4,"emojiUsage":0}',
      language: "en",
      adminHandle: "@New_Admin",
    }, alice);
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({
      id: created.id,
      name: "Renamed",
      language: "en",
      adminHandle: "New_Admin",
      writingStyle: { formality: 0, seriousness: 4, emojiUsage: 0 },
      timezone: "Europe/Moscow",
    });

    const bad = await stack.call("PATCH", `/api/projects/${created.id}`, { adminHandle: "x" }, alice);
    expect(bad.json).toEqual({ message: "Invalid Telegram handle format", code: "projects.adminHandleInvalid" });
    expect((await stack.call("GET", `/api/projects/${created.id}`, undefined, alice)).json.adminHandle).toBe("New_Admin");

    expect((await stack.call("DELETE", `/api/projects/${created.id}`, undefined, alice)).status).toBe(200);
    const gone = await stack.call("GET", `/api/projects/${created.id}`, undefined, alice);
    expect(gone.status).toBe(404);
    expect(gone.json).toEqual({ message: "Project not found", code: "projects.notFound" });
  });

  test("another user's project is 404 on every call and stays unchanged", async () => {
    const mine = (await stack.call("POST", "/api/projects", valid, alice)).json;
    const path = `/api/projects/${mine.id}`;
    expect((await stack.call("GET", path, undefined, bob)).status).toBe(404);
    expect((await stack.call("PATCH", path, { name: "Hijacked" }, bob)).status).toBe(404);
    expect((await stack.call("DELETE", path, undefined, bob)).status).toBe(404);
    expect((await stack.call("GET", path, undefined, alice)).json.name).toBe(valid.name);
  });

  test("every call answers 401 without a session", async () => {
    for (const [method, path] of [["GET", "/api/projects"], ["POST", "/api/projects"], ["GET", "/api/projects/1"], ["PATCH", "/api/projects/1"], ["DELETE", "/api/projects/1"]]) {
      const res = await stack.call(method, path, method === "POST" || method === "PATCH" ? valid : undefined);
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.json.code).toBe("unauthorized");
    }
  });

  test("malformed JSON, wrong types and odd ids are 4xx JSON, never 500", async () => {
    const malformed = await stack.call("POST", "/api/projects", "{\"name\":", alice);
    expect(malformed.status).toBe(400);
    expect(malformed.json.code).toBe("request.malformedJson");
    const wrongType = await stack.call("POST", "/api/projects", { name: 42, adminHandle: ["x"] }, alice);
    expect(wrongType.status).toBe(400);
    expect(wrongType.json.message).toBe("Project name is required");
    const arrayBody = await stack.call("POST", "/api/projects", [1, 2], alice);
    expect(arrayBody.status).toBe(400);
    for (const id of ["abc", "0", "-1", "99999999999999999999", "1.5"]) {
      const res = await stack.call("GET", `/api/projects/${id}`, undefined, alice);
      expect(res.status, id).toBe(404);
      expect(res.json.code).toBe("notFound");
    }
    const huge = await stack.call("POST", "/api/projects", { ...valid, description: "x".repeat(2 * 1024 * 1024) }, alice);
    expect(huge.status).toBe(413);
    expect(huge.json.code).toBe("tooLarge");
  });
});
