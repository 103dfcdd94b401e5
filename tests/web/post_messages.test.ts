/*
 * A post's failure reason, written by the server in English with names in it, reads in the
 * interface's language with the same names. The channel-trust reasons come from the code
 * that writes them (lostRightsReason) or are the exact sentences the SQL writes (asserted
 * as such in tests/publishing/channel_trust.test.ts).
 */
import { expect, test } from "vitest";
import en from "../../web/src/i18n/en.json" with { type: "json" };
import ru from "../../web/src/i18n/ru.json" with { type: "json" };
import { lostRightsReason } from "../../core/telegram/channel_rights.ts";
import { reasonText } from "../../web/src/lib/postMessages.ts";
import { AI_NOT_CONFIGURED } from "../../core/ai/client.ts";
import { noAiNote } from "../../tasks/autopilot.ts";
import { translator } from "../helpers/i18n.ts";

const REASONS = [
  lostRightsReason("approverNotAdmin", "olga_admin", "@city_news"),
  lostRightsReason("botNotAdmin", "olga_admin", "@city_news"),
  lostRightsReason("botCannotPost", "olga_admin", "@city_news"),
  "The channel @city_news was disconnected before this post went out; publish it again to send it for approval",
  "The channel changed after this post was approved; publish it again to send it for approval",
];

test("each channel-trust reason has a Russian text that keeps the names", () => {
  const t = translator(ru);
  for (const reason of REASONS) {
    const shown = reasonText(t, reason);
    expect(shown, reason).not.toBe(reason);
    expect(shown, reason).toMatch(/[а-я]/);
    for (const name of reason.match(/@\w+/g) ?? []) expect(shown, reason).toContain(name);
  }
  expect(reasonText(t, REASONS[0])).toContain("@olga_admin больше не администратор канала @city_news");
});

test("in English the reasons read as sentences with their names", () => {
  const t = translator(en);
  expect(reasonText(t, REASONS[0])).toBe(
    "@olga_admin is no longer an administrator of @city_news who may post. The post was not sent. " +
      "Name a current administrator in the project and publish the post again.",
  );
  expect(reasonText(t, REASONS[3])).toContain("@city_news");
});

test("an autopilot post sent without AI text says why in the interface's language, its cause translated too", () => {
  const stored = noAiNote(AI_NOT_CONFIGURED);
  const shown = reasonText(translator(ru), stored);
  expect(shown).toMatch(/^ИИ не смог написать этот пост \(ИИ на этом сервере не настроен/);
  expect(shown).not.toContain("The AI");
  // a cause nobody translates (the provider's own words) shows as it is
  expect(reasonText(translator(ru), noAiNote("model overloaded"))).toContain("(model overloaded)");
});
