/*
 * Advertising posts through the API (docs/ads.md): a draft or post carries its sale, bad
 * fields are refused with an ads.* code and change nothing, the label the law asks for is the
 * last line of what the approver and the channel read, and it must fit Telegram's limit when
 * saved.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { AD_FEED_MINUTES_MAX, AD_TOP_MINUTES_MAX, adLabel } from "../../contract/ads.ts";
import { approvalPreview, buttonData, postReaches, press, projectWithChannel } from "../helpers/publishing.ts";
import { type Stack, startStack } from "../helpers/stack.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ telegram: true });
});
afterAll(() => stack.close());

const AD = { advertiser: "ООО «Ромашка»", advertiserInn: "7707083893", erid: "2VtzqvXyZ1", topMinutes: 60, feedMinutes: 1440, price: { amount: 15000, currency: "RUB" } };

describe("a draft carries its sale", () => {
  test("stored and answered as given, read back, changed and taken away", async () => {
    const p = await projectWithChannel(stack);
    const created = await stack.call("POST", `${p.base}/drafts`, { title: "Sold", content: "Buy flowers", ad: AD }, p.cookie);
    expect(created.status).toBe(201);
    expect(created.json.ad).toEqual(AD);
    expect((await stack.call("GET", `${p.base}/drafts/${created.json.id}`, undefined, p.cookie)).json.ad).toEqual(AD);
    const changed = await stack.call("PATCH", `${p.base}/drafts/${created.json.id}`, { ad: { ...AD, topMinutes: 120 } }, p.cookie);
    expect(changed.json.ad.topMinutes).toBe(120);
    const plain = await stack.call("PATCH", `${p.base}/drafts/${created.json.id}`, { title: "Still sold" }, p.cookie);
    expect(plain.json.ad.topMinutes).toBe(120);
    const removed = await stack.call("PATCH", `${p.base}/drafts/${created.json.id}`, { ad: null }, p.cookie);
    expect(removed.json.ad).toBeNull();
    const other = await stack.call("POST", `${p.base}/drafts`, { title: "Own post" }, p.cookie);
    expect(other.json.ad).toBeNull();
  });

  test("bad fields are refused with their ads.* code, and nothing is stored", async () => {
    const p = await projectWithChannel(stack);
    const cases: [Record<string, unknown>, string][] = [
      [{ ...AD, advertiser: "  " }, "ads.advertiserRequired"],
      [{ ...AD, advertiser: "x".repeat(201) }, "ads.advertiserTooLong"],
      [{ ...AD, advertiserInn: "12345" }, "ads.innInvalid"],
      [{ ...AD, erid: "erid with spaces" }, "ads.eridInvalid"],
      [{ ...AD, erid: "x".repeat(65) }, "ads.eridInvalid"],
      [{ ...AD, topMinutes: AD_TOP_MINUTES_MAX + 1 }, "ads.topMinutesInvalid"],
      [{ ...AD, topMinutes: 1.5 }, "ads.topMinutesInvalid"],
      [{ ...AD, feedMinutes: AD_FEED_MINUTES_MAX + 1 }, "ads.feedMinutesInvalid"],
      [{ ...AD, feedMinutes: -1 }, "ads.feedMinutesInvalid"],
      [{ ...AD, price: { amount: -5, currency: "RUB" } }, "ads.priceInvalid"],
      [{ ...AD, price: { amount: 10.005, currency: "RUB" } }, "ads.priceInvalid"],
      [{ ...AD, price: { amount: 10, currency: "BTC" } }, "ads.currencyInvalid"],
      [{ ...AD, extra: true }, "ads.invalid"],
    ];
    for (const [ad, code] of cases) {
      const res = await stack.call("POST", `${p.base}/drafts`, { title: "Bad", ad }, p.cookie);
      expect(res.status, code).toBe(400);
      expect(res.json.code, JSON.stringify(ad)).toBe(code);
    }
    expect((await stack.call("GET", `${p.base}/drafts`, undefined, p.cookie)).json).toEqual([]);
  });

  test("a sale's format is weighed when its draft is saved: never silent, never pinned past its feed time", async () => {
    const p = await projectWithChannel(stack);
    const silent = await stack.call("POST", `${p.base}/drafts`, { title: "Quiet sale", ad: AD, options: { silent: true } }, p.cookie);
    expect(silent.status).toBe(400);
    expect(silent.json.code).toBe("ads.silentAd");
    // AD leaves the feed after 24 hours: an unpin after 48 would come after the bot deleted it
    const pinned = await stack.call("POST", `${p.base}/drafts`, { title: "Pinned sale", ad: AD, options: { pin: true, unpinAfterHours: 48 } }, p.cookie);
    expect(pinned.status).toBe(400);
    expect(pinned.json.code).toBe("ads.pinOutlivesFeed");
    expect((await stack.call("GET", `${p.base}/drafts`, undefined, p.cookie)).json).toEqual([]);
    // a saved draft that becomes such an ad is refused too, and stays as it was
    const own = (await stack.call("POST", `${p.base}/drafts`, { title: "Own", options: { silent: true } }, p.cookie)).json;
    const made = await stack.call("PATCH", `${p.base}/drafts/${own.id}`, { ad: AD }, p.cookie);
    expect(made.json.code).toBe("ads.silentAd");
    expect((await stack.call("GET", `${p.base}/drafts/${own.id}`, undefined, p.cookie)).json.ad).toBeNull();
    // the same sale with its notification and a pin inside its feed time is saved
    const fine = await stack.call("POST", `${p.base}/drafts`, { title: "Sale", ad: AD, options: { pin: true, unpinAfterHours: 24 } }, p.cookie);
    expect(fine.status, fine.text).toBe(201);
  });

  test("a text that leaves no room for its label is refused when saved, naming the length", async () => {
    const p = await projectWithChannel(stack);
    const label = adLabel(AD as never, "ru");
    const room = 4096 - 2 - label.length;
    const fits = await stack.call("POST", `${p.base}/drafts`, { title: "Long", content: "a".repeat(room), ad: AD }, p.cookie);
    expect(fits.status).toBe(201);
    const over = await stack.call("PATCH", `${p.base}/drafts/${fits.json.id}`, { content: "a".repeat(room + 1) }, p.cookie);
    expect(over.status).toBe(400);
    expect(over.json).toMatchObject({ code: "ads.labelDoesNotFit", params: { current: 4097, max: 4096 } });
    expect((await stack.call("GET", `${p.base}/drafts/${fits.json.id}`, undefined, p.cookie)).json.content).toHaveLength(room);
  });
});

describe("a post carries its draft's sale", () => {
  test("takes the draft's ad and answers where it stands; null plans it as the channel's own post", async () => {
    const p = await projectWithChannel(stack);
    const draft = (await stack.call("POST", `${p.base}/drafts`, { title: "Sold", content: "Buy flowers", ad: AD }, p.cookie)).json;
    const at = new Date(Date.now() + 5 * 3600_000);
    at.setUTCSeconds(0, 0);
    const post = await stack.call("POST", `${p.base}/posts`, { draftId: draft.id, scheduledFor: at.toISOString() }, p.cookie);
    expect(post.status).toBe(201);
    // the ad as given, and when the bot removed it (not yet)
    expect(post.json.ad).toEqual({ ...AD, removedAt: null });
    expect(post.json.adState).toEqual({
      topFrom: at.toISOString(),
      topUntil: new Date(at.getTime() + 60 * 60_000).toISOString(),
      removeAt: new Date(at.getTime() + 1440 * 60_000).toISOString(),
      removedAt: null,
      removalRemindedAt: null,
    });
    // the calendar's grid reads the window too
    const [row] = (await stack.call("GET", `${p.base}/posts?view=calendar`, undefined, p.cookie)).json;
    expect(row.adState).toEqual(post.json.adState);
    // a client may send the ad back as it read it: removedAt is the bot's to say, and ignored
    const back = await stack.call("PUT", `${p.base}/posts/${post.json.id}`,
      { draftId: draft.id, scheduledFor: at.toISOString(), ad: { ...post.json.ad, topMinutes: 120, removedAt: "2020-01-01T00:00:00.000Z" } }, p.cookie);
    expect(back.status, back.text).toBe(200);
    expect(back.json.ad).toEqual({ ...AD, topMinutes: 120, removedAt: null });
    const own = await stack.call("PUT", `${p.base}/posts/${post.json.id}`, { draftId: draft.id, scheduledFor: at.toISOString(), ad: null }, p.cookie);
    expect(own.status).toBe(200);
    expect(own.json).toMatchObject({ ad: null, adState: null });
  });

  test("a series is never an ad", async () => {
    const p = await projectWithChannel(stack, { drafts: ["one"] });
    const res = await stack.call("POST", `${p.base}/posts`, {
      scheduledFor: new Date(Date.now() + 5 * 3600_000).toISOString(), isRecurring: true, recurringType: "daily", title: "Daily", ad: AD,
    }, p.cookie);
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("ads.notInSeries");
    expect((await stack.call("GET", `${p.base}/posts`, undefined, p.cookie)).json).toEqual([]);
  });
});

describe("the label is the last line of what Telegram gets", () => {
  for (const language of ["ru", "en"] as const) {
    test(`in a ${language} project: the approver's preview and the channel read it after the text, formatting kept`, async () => {
      const p = await projectWithChannel(stack, { language });
      const { id: draftId } = (await stack.call("POST", `${p.base}/drafts`, {
        title: "Sold", content: "Buy flowers", entities: [{ type: "bold", offset: 0, length: 3 }], ad: AD,
      }, p.cookie)).json;
      const post = (await stack.call("POST", `${p.base}/posts`, { draftId, scheduledFor: new Date(Date.now() + 3000).toISOString() }, p.cookie)).json;
      await stack.call("POST", `${p.base}/posts/${post.id}/publish`, undefined, p.cookie);
      const expected = `Buy flowers\n\n${adLabel(AD as never, language)}`;
      expect(expected.endsWith(language === "ru" ? "Реклама. ООО «Ромашка», ИНН 7707083893. erid: 2VtzqvXyZ1" : "Ad. ООО «Ромашка», TIN 7707083893. erid: 2VtzqvXyZ1")).toBe(true);
      const preview = await approvalPreview(stack, p, post.id);
      expect(preview.text).toBe(expected);
      await press(stack, p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", post.id));
      await postReaches(stack, post.id, "published");
      const [sent] = stack.telegram!.messages(p.channel.id);
      expect(sent.text).toBe(expected);
      expect(sent.entities).toEqual([{ type: "bold", offset: 0, length: 3 }]);
    });
  }
});
