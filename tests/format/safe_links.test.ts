/*
 * Safe links (docs/trust-model.md): a post's links and buttons may open only harmless
 * tg:// actions. Written as an attacker would spell the dangerous ones: every case, scheme
 * and host spelling Telegram's apps might still open is refused with posts.unsafeLink;
 * the AI's Markdown keeps such a link's words and drops the link.
 */
import { describe, expect, test } from "vitest";
import { entitiesProblem, isAllowedLink, isUnsafeLink, SAFE_TG_ACTIONS } from "../../contract/entities.ts";
import { PostOptionsSchema } from "../../contract/post_options.ts";
import { markdownToEntities } from "../../contract/markdown.ts";
import * as v from "valibot";
import { SAFE_LINKS, UNSAFE_LINKS } from "../cases/safe_links.ts";

describe("tg:// and t.me actions", () => {
  test("each dangerous spelling is unsafe, and not an allowed link", () => {
    for (const url of UNSAFE_LINKS) {
      expect(isUnsafeLink(url), url).toBe(true);
      expect(isAllowedLink(url), url).toBe(false);
    }
  });

  test("the harmless actions and ordinary sites pass", () => {
    for (const url of SAFE_LINKS) {
      expect(isUnsafeLink(url), url).toBe(false);
      expect(isAllowedLink(url), url).toBe(true);
    }
    expect([...SAFE_TG_ACTIONS]).toEqual(["resolve", "join", "addlist", "privatepost", "boost", "msg_url"]);
  });

  test("a text link and a URL button to them are refused with posts.unsafeLink", () => {
    const text = "Sign in here";
    for (const url of UNSAFE_LINKS) {
      expect(entitiesProblem(text, [{ type: "text_link", offset: 0, length: 4, url }]), url).toBe("posts.unsafeLink");
      const options = v.safeParse(PostOptionsSchema, { buttons: [[{ text: "Verify", url }]] });
      expect(options.success, url).toBe(false);
      expect(options.issues?.[0].message, url).toBe("posts.unsafeLink");
    }
    // not a Telegram action at all: the old code, as before
    expect(entitiesProblem(text, [{ type: "text_link", offset: 0, length: 4, url: "javascript:alert(1)" }])).toBe("entities.badLink");
    expect(v.safeParse(PostOptionsSchema, { buttons: [[{ text: "x", url: "http://x.example" }]] }).issues?.[0].message).toBe("posts.buttonUrlInvalid");
  });

  test("the AI's Markdown keeps an unsafe link's words and drops the link; a safe one stays", () => {
    const { text, entities } = markdownToEntities(
      "[Claim your prize](tg://login?token=AAAA), [proxy](https://t.me/proxy?server=x) and [our channel](tg://resolve?domain=pressa).",
    );
    expect(text).toBe("Claim your prize, proxy and our channel.");
    expect(entities).toEqual([{ type: "text_link", offset: text.indexOf("our channel"), length: 11, url: "tg://resolve?domain=pressa" }]);
  });
});
