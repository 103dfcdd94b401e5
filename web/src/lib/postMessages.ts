import { errorParams, isErrorCode } from "../../../contract/error_codes.ts";
import { isPostReasonCode, postReasonMessage, type PostReasonParams } from "../../../contract/post_reasons.ts";
import type { TFunction, TranslationKey } from "../i18n/i18n.tsx";
import { errorText } from "./messages.ts";

/**
 * A post's stored reason (lastErrorCode with lastErrorParams, contract/post_reasons.ts)
 * in the interface language: the code is the dictionary key and the params fill its
 * placeholders. A {reason} that is an error code (the AI's failure) is worded as that code. A
 * code this interface does not know (a newer server's) reads in the catalogue's English.
 */
export function reasonText(t: TFunction, code: string, params: PostReasonParams = {}): string {
  if (!isPostReasonCode(code)) return postReasonMessage(code, params);
  const values = { ...(isErrorCode(code) ? errorParams(code) : {}), ...params };
  if (isErrorCode(params.reason)) values.reason = errorText(t, params.reason);
  const text = t(code as TranslationKey, values);
  return text === code ? postReasonMessage(code, params) : text;
}
