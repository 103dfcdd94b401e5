import * as v from "valibot";
import { LANGUAGES, SIGN_IN_CODE_LENGTH } from "./limits.ts";

/** Spec §5: sign-in e-mail and code; messages are codes of error_codes.ts (the spec's words). */
// A missing field is read as "" so it fails with the field's own message, not valibot's.
export const EmailSchema = v.pipe(
  v.optional(v.string("auth.invalidEmail"), ""),
  v.trim(),
  v.toLowerCase(),
  v.maxLength(254, "auth.invalidEmail"),
  v.email("auth.invalidEmail"),
);

export const CodeSchema = v.pipe(
  v.optional(v.string("auth.codeLength"), ""),
  v.trim(),
  v.length(SIGN_IN_CODE_LENGTH, "auth.codeLength"),
);

export const RequestCodeSchema = v.object({ email: EmailSchema });
export const VerifyCodeSchema = v.object({ email: EmailSchema, code: CodeSchema });

/** The signed-in user as GET /api/auth/user and verify-otp answer it. */
export type SessionUser = { id: number; email: string; isAdmin: boolean };

/** The language a signed-in person reads Pressa in; the mails to them follow it. */
export const LanguageUpdateSchema = v.object({ language: v.picklist(LANGUAGES, "auth.languageInvalid") });
