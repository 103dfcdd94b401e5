import * as v from "valibot";
import { SIGN_IN_CODE_LENGTH } from "./limits.ts";

/** Spec §5: sign-in e-mail and code, with the exact messages the client shows. */
// A missing field is read as "" so it fails with the field's own message, not valibot's.
export const EmailSchema = v.pipe(
  v.optional(v.string("Invalid email"), ""),
  v.trim(),
  v.toLowerCase(),
  v.maxLength(254, "Invalid email"),
  v.email("Invalid email"),
);

export const CodeSchema = v.pipe(
  v.optional(v.string(`String must contain exactly ${SIGN_IN_CODE_LENGTH} character(s)`), ""),
  v.trim(),
  v.length(SIGN_IN_CODE_LENGTH, `String must contain exactly ${SIGN_IN_CODE_LENGTH} character(s)`),
);

export const RequestCodeSchema = v.object({ email: EmailSchema });
export const VerifyCodeSchema = v.object({ email: EmailSchema, code: CodeSchema });

/** The signed-in user as GET /api/auth/user and verify-otp answer it. */
export type SessionUser = { id: number; email: string; isAdmin: boolean };
