/*
 * What the approver's buttons carry back (callback_data, at most 64 bytes): the action and
 * the row it acts on, parsed strictly so a forged or stale payload is recognised as such.
 */
/**
 * callback_data of the admin's buttons: "<action>:<postId>" or, on a preview or an edit's
 * preview, "<action>:<postId>:<round>". The round names the preview the buttons belong to, so
 * a press counts even before the task has recorded the preview's message ids (a watchful
 * approver may press within milliseconds); buttons sent before rounds carry none.
 */
export type AdminAction = "approve" | "reject" | "inchannel" | "resend" | "editok" | "editno";
export const callbackData = (action: AdminAction, postId: number, round?: number) =>
  round === undefined ? `${action}:${postId}` : `${action}:${postId}:${round}`;
export function parseCallbackData(data: string): { action: AdminAction; postId: number; round: number | null } | null {
  const match = data.match(/^(approve|reject|inchannel|resend|editok|editno):(\d{1,15})(?::(\d{1,17}))?$/);
  return match ? { action: match[1] as AdminAction, postId: Number(match[2]), round: match[3] ? Number(match[3]) : null } : null;
}

/**
 * An edit's round: when it was requested (pending_edit.requestedAt, PostgreSQL's ISO time with
 * microseconds), in microseconds since the epoch, as app_private.edit_round counts it.
 */
export function editRound(requestedAt: string): number {
  const match = requestedAt.match(/^(.*T\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?(.*)$/);
  if (!match) throw new Error(`not an ISO time: ${requestedAt}`);
  return Date.parse(match[1] + match[3]) * 1000 + Number((match[2] ?? "").padEnd(6, "0"));
}

/** The approver's buttons on a request to act in their name: "ar:<decision>:<requestId>". */
export type ApproverDecision = "allow" | "deny" | "block";
export const approverCallbackData = (decision: ApproverDecision, requestId: number) => `ar:${decision}:${requestId}`;
export function parseApproverCallbackData(data: string): { decision: ApproverDecision; requestId: number } | null {
  const match = data.match(/^ar:(allow|deny|block):(\d{1,15})$/);
  return match ? { decision: match[1] as ApproverDecision, requestId: Number(match[2]) } : null;
}
