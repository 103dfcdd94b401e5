/*
 * Every webhook event type (docs/api.md "Webhooks", shared/DESIGN.md), made by the real act:
 * through the API, the bot and the Telegram Bot API double. Each arrives signed (verified by
 * Standard Webhooks' reference library, `standardwebhooks`) with `data` holding the projectId
 * and the object: a post or a draft exactly as the API answers it, key for key and value for
 * value (app_private.post_json and draft_json against api/post_columns.ts and toDraft), in a
 * post's several states: planned, an ad, a series, in review, rejected, failed, published,
 * deleted. Ordering and retries: webhooks.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { buttonData, failedInTelegram, postReaches, projectWithChannel, sentForApproval } from "../helpers/publishing.ts";
import { type Stack, startStack } from "../helpers/stack.ts";
import { addMember } from "../helpers/team.ts";
import { arrives } from "../helpers/until.ts";
import { startReceiver, verified } from "../helpers/webhooks.ts";

const EVENTS = [
  "post.scheduled", "post.in_review", "post.approval_requested", "post.approved", "post.rejected", "post.published",
  "post.failed", "post.edited", "post.deleted", "draft.created", "channel.connected", "member.joined",
];

type Event = { type: string; timestamp: string; data: Record<string, unknown> & { projectId: number } };
type Data = { post?: { id?: unknown }; draft?: { id?: unknown } };

let stack: Stack;
let receiver: ReturnType<typeof startReceiver>;
beforeAll(async () => {
  stack = await startStack({ bot: true, env: { WEBHOOKS_ALLOW_PRIVATE: "true" } });
  receiver = startReceiver();
});
afterAll(async () => {
  await stack.close();
  await receiver.close();
});

/** A project with its channel whose endpoint, made before the channel was connected, wants every event. */
async function hookedProject(drafts: string[]) {
  let secret = "";
  const path = `/all-${crypto.randomUUID()}`;
  const p = await projectWithChannel(stack, {
    drafts,
    async beforeChannel(project) {
      const made = await stack.call("POST", `${project.base}/webhooks`, { url: receiver.url(path), events: EVENTS }, project.cookie);
      expect(made.status, made.text).toBe(201);
      secret = made.json.secret;
    },
  });
  /** The first event of `type` whose data `matches`, once it arrived; its signature verified. */
  const event = async (type: string, matches: (data: Data) => boolean = () => true): Promise<Event> => {
    const got = await arrives(() =>
      receiver.received.find((r) => {
        if (r.path !== path) return false;
        const e = JSON.parse(r.body);
        return e.type === type && matches(e.data);
      }), 30_000);
    const payload = verified(secret, got) as Event;
    expect(payload).toEqual(JSON.parse(got.body));
    expect(payload.data.projectId).toBe(p.project.id);
    // when the act happened, an ISO instant as every other time the API answers
    expect(payload.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(payload.timestamp)).toBeGreaterThan(Date.now() - 120_000);
    return payload;
  };
  const ofPost = (id: number) => (data: Data) => data.post?.id === id;
  const apiPost = async (id: number) => {
    const read = await stack.call("GET", `${p.base}/posts/${id}`, undefined, p.cookie);
    expect(read.status, read.text).toBe(200);
    return read.json;
  };
  return { ...p, path, event, ofPost, apiPost };
}

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
const AD = { advertiser: "ООО «Ромашка»", erid: "2VtzqvXyZ1", topMinutes: 60, feedMinutes: 0, price: { amount: 15000, currency: "RUB" } };

describe("every event arrives, signed, with its object as the API answers it", () => {
  test("channel.connected, draft.created, member.joined; post.scheduled (planned, an ad, a series), post.edited, post.deleted", async () => {
    const p = await hookedProject(["Planned", "Sold", "Every day"]);

    const connected = await p.event("channel.connected");
    const channels = (await stack.call("GET", `${p.base}/channels`, undefined, p.cookie)).json;
    // the channel as the API answers it
    expect(connected.data).toEqual({ projectId: p.project.id, channel: channels[0] });
    expect(channels[0]).toMatchObject({ status: "connected", approver: { handle: p.admin.username } });

    const draft = await stack.call("POST", `${p.base}/drafts`, { title: "Fresh", content: "Body", options: { silent: true } }, p.cookie);
    expect(draft.status, draft.text).toBe(201);
    const created = await p.event("draft.created", (d) => d.draft?.id === draft.json.id);
    expect(created.data).toEqual({ projectId: p.project.id, draft: draft.json });

    const author = await addMember(stack, p.project.id, p.cookie, "author");
    const joined = await p.event("member.joined");
    const members = (await stack.call("GET", `${p.base}/members`, undefined, p.cookie)).json.members;
    const listed = members.find((m: { userId: number }) => m.userId === author.user.id);
    expect(listed).toMatchObject({ email: author.email.toLowerCase(), role: "author" });
    // the member as the members list answers them
    expect(joined.data).toEqual({ projectId: p.project.id, member: listed });

    const planned = (await stack.call("POST", `${p.base}/posts`, { draftId: p.drafts[0].id, scheduledFor: inDays(3) }, p.cookie)).json;
    expect((await p.event("post.scheduled", p.ofPost(planned.id))).data).toEqual({ projectId: p.project.id, post: await p.apiPost(planned.id) });
    expect(await p.apiPost(planned.id)).toEqual(planned);

    const sold = await stack.call("POST", `${p.base}/posts`, { draftId: p.drafts[1].id, scheduledFor: inDays(4), ad: AD }, p.cookie);
    expect(sold.status, sold.text).toBe(201);
    const soldEvent = await p.event("post.scheduled", p.ofPost(sold.json.id));
    expect(soldEvent.data.post).toMatchObject({ ad: AD, adState: { topFrom: expect.any(String) } });
    expect(soldEvent.data).toEqual({ projectId: p.project.id, post: await p.apiPost(sold.json.id) });

    const series = await stack.call("POST", `${p.base}/posts`, {
      draftId: p.drafts[2].id, scheduledFor: inDays(2), isRecurring: true, recurringType: "daily", endsAfter: 3,
    }, p.cookie);
    expect(series.status, series.text).toBe(201);
    const seriesEvent = await p.event("post.scheduled", p.ofPost(series.json.id));
    expect(seriesEvent.data.post).toMatchObject({ isRecurring: true, recurringType: "daily", endsAfter: 3, skippedOccurrences: [] });
    expect(seriesEvent.data).toEqual({ projectId: p.project.id, post: await p.apiPost(series.json.id) });

    const moved = inDays(5);
    const edited = await stack.call("PUT", `${p.base}/posts/${planned.id}`, { draftId: p.drafts[0].id, title: "Planned", content: "New", scheduledFor: moved }, p.cookie);
    expect(edited.status, edited.text).toBe(200);
    const editedEvent = await p.event("post.edited", p.ofPost(planned.id));
    expect(editedEvent.data).toEqual({ projectId: p.project.id, post: edited.json });
    expect(editedEvent.data.post).toMatchObject({ scheduledFor: moved, status: planned.status });

    // the post as it was when deleted
    const before = await p.apiPost(planned.id);
    expect((await stack.call("DELETE", `${p.base}/posts/${planned.id}`, undefined, p.cookie)).status).toBe(200);
    expect((await p.event("post.deleted", p.ofPost(planned.id))).data).toEqual({ projectId: p.project.id, post: before });
  }, 120_000);

  test("post.in_review (an author's post, published), post.rejected (the approver in Telegram), post.failed, post.published", async () => {
    const p = await hookedProject(["Refused", "Broken", "Out"]);
    const author = await addMember(stack, p.project.id, p.cookie, "author");
    const own = (await stack.call("POST", `${p.base}/drafts`, { title: "The author's", content: "Mine" }, author.cookie)).json;
    const waiting = (await stack.call("POST", `${p.base}/posts`, { draftId: own.id, scheduledFor: inDays(2) }, author.cookie)).json;
    const published = await stack.call("POST", `${p.base}/posts/${waiting.id}/publish`, undefined, author.cookie);
    expect(published.json).toMatchObject({ status: "in_review", reviewAuthorId: author.user.id });
    const inReview = await p.event("post.in_review", p.ofPost(waiting.id));
    expect(inReview.data.post).toMatchObject({ status: "in_review", reviewAuthorId: author.user.id, reviewAuthorEmail: author.email.toLowerCase() });
    expect(inReview.data).toEqual({ projectId: p.project.id, post: waiting });

    const { postId: refused, preview } = await sentForApproval(stack, p, p.drafts[0].id, 60_000);
    const query = stack.telegram!.userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "reject", refused));
    await stack.telegram!.waitFor(() => stack.telegram!.callbackAnswer(query), 10_000);
    await postReaches(stack, refused, "rejected");
    const rejected = await p.event("post.rejected", p.ofPost(refused));
    expect(rejected.data).toEqual({ projectId: p.project.id, post: await p.apiPost(refused) });
    expect(rejected.data.post).toMatchObject({ status: "rejected" });

    const broken = await failedInTelegram(stack, p, p.drafts[1].id);
    const failed = await p.event("post.failed", p.ofPost(broken));
    expect(failed.data).toEqual({ projectId: p.project.id, post: await p.apiPost(broken) });
    expect(failed.data.post).toMatchObject({ status: "failed", lastErrorCode: expect.any(String) });

    const { postId: out, preview: outPreview } = await sentForApproval(stack, p, p.drafts[2].id, 3000);
    stack.telegram!.userPressesButton(p.admin.id, p.admin.id, outPreview.message_id, buttonData(outPreview, "approve", out));
    await postReaches(stack, out, "published");
    const sent = await p.event("post.published", p.ofPost(out));
    expect(sent.data).toEqual({ projectId: p.project.id, post: await p.apiPost(out) });
    expect(sent.data.post).toMatchObject({ status: "published", publishedAt: expect.any(String), publishedLinks: expect.any(Object) });
  }, 120_000);
});
