/*
 * What the approver's buttons carry back (callback_data, at most 64 bytes): the action and
 * the row it acts on, parsed strictly so a forged or stale payload is recognised as such.
 */
/** callback_data of the admin's buttons: "<action>:<postId>". */
export type AdminAction = "approve" | "reject" | "inchannel" | "resend" | "editok" | "editno";
export const callbackData = (action: AdminAction, postId: number) => `${action}:${postId}`;
export function parseCallbackData(data: string): { action: AdminAction; postId: number } | null {
  const match = data.match(/^(approve|reject|inchannel|resend|editok|editno):(\d{1,15})$/);
  return match ? { action: match[1] as AdminAction, postId: Number(match[2]) } : null;
}

/** The approver's buttons on a request to act in their name: "ar:<decision>:<requestId>". */
export type ApproverDecision = "allow" | "deny" | "block";
export const approverCallbackData = (decision: ApproverDecision, requestId: number) => `ar:${decision}:${requestId}`;
export function parseApproverCallbackData(data: string): { decision: ApproverDecision; requestId: number } | null {
  const match = data.match(/^ar:(allow|deny|block):(\d{1,15})$/);
  return match ? { decision: match[1] as ApproverDecision, requestId: Number(match[2]) } : null;
}
