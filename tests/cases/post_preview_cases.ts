/*
 * What the channel gets for a post, message by message. One table drives the sender
 * (tests/publishing/post_preview_cases.test.ts: sendPost to the Telegram Bot API double, then
 * the messages the double holds) and the SPA's preview (tests/components/post_preview.test.tsx:
 * what PostPreview draws), so the preview cannot show what the channel will not get.
 */
import type { Ad } from "../../contract/ads.ts";
import type { PostPart } from "../../contract/post_plan.ts";
import type { UrlButton } from "../../contract/post_options.ts";

export type ExpectedMessage = {
  part: PostPart;
  /** Photos in the message (an album's count). */
  images: number;
  /** The words it carries (a text, or a caption), or null for a photo or album without a caption. */
  words: string | null;
  /** The buttons' labels under it, row by row. */
  buttons: string[][];
  pinned: boolean;
  silent: boolean;
};

export type PreviewCase = {
  name: string;
  images: number;
  content: string;
  buttons?: UrlButton[][];
  silent?: boolean;
  pin?: boolean;
  /** A sold post: its label goes last, in the project's language. */
  ad?: Ad;
  projectLanguage?: string;
  expected: ExpectedMessage[];
};

const LONG = "Long words. ".repeat(90).trim(); // 1,079 units: over a caption's 1,024
const SHOP = [[{ text: "Buy", url: "https://shop.example/item" }, { text: "Read", url: "https://shop.example/blog" }], [{ text: "Ask", url: "https://shop.example/ask" }]];
const shop = [["Buy", "Read"], ["Ask"]];
const plain = { buttons: [], pinned: false, silent: false };
const AD: Ad = { advertiser: "ООО «Ромашка»", advertiserInn: "7707083893", erid: "2VtzqvXYZ1", topMinutes: 60, feedMinutes: 1440 };
const NEAR_CAPTION = "Spring sale. ".repeat(77).trim(); // 1,000 units: a caption alone, not with its label

export const PREVIEW_CASES: PreviewCase[] = [
  {
    name: "an album with buttons: the album without a caption, then the text with the buttons; the pin on the first photo",
    images: 3,
    content: "Spring collection",
    buttons: SHOP,
    pin: true,
    expected: [
      { ...plain, part: "album", images: 3, words: null, pinned: true },
      { ...plain, part: "text", images: 0, words: "Spring collection", buttons: shop },
    ],
  },
  {
    name: "an album without buttons carries its text as the caption",
    images: 2,
    content: "Two views",
    expected: [{ ...plain, part: "album+caption", images: 2, words: "Two views" }],
  },
  {
    name: "a caption over 1,024 units: the photo alone, then the text with the buttons",
    images: 1,
    content: LONG,
    buttons: [SHOP[1]],
    expected: [
      { ...plain, part: "photo", images: 1, words: null },
      { ...plain, part: "text", images: 0, words: LONG, buttons: [["Ask"]] },
    ],
  },
  {
    name: "a photo with its text as the caption and the buttons under it",
    images: 1,
    content: "New arrival",
    buttons: SHOP,
    expected: [{ ...plain, part: "photo+caption", images: 1, words: "New arrival", buttons: shop }],
  },
  {
    name: "text only: one message",
    images: 0,
    content: "Just words",
    expected: [{ ...plain, part: "text", images: 0, words: "Just words" }],
  },
  {
    name: "a silent album with buttons: every message silent",
    images: 2,
    content: "Quietly",
    buttons: [SHOP[1]],
    silent: true,
    expected: [
      { ...plain, part: "album", images: 2, words: null, silent: true },
      { ...plain, part: "text", images: 0, words: "Quietly", buttons: [["Ask"]], silent: true },
    ],
  },
  {
    name: "a pinned text post pins its one message",
    images: 0,
    content: "Read me first",
    pin: true,
    expected: [{ ...plain, part: "text", images: 0, words: "Read me first", pinned: true }],
  },
  {
    name: "an ad in a Russian project: the label is the message's last line",
    images: 0,
    content: "Скидка 20% до воскресенья",
    ad: AD,
    projectLanguage: "ru",
    expected: [{ ...plain, part: "text", images: 0, words: "Скидка 20% до воскресенья\n\nРеклама. ООО «Ромашка», ИНН 7707083893. erid: 2VtzqvXYZ1" }],
  },
  {
    name: "an ad in an English project whose text fits a caption only without its label: the photo, then the text with the label",
    images: 1,
    content: NEAR_CAPTION,
    ad: { ...AD, advertiser: "Romashka LLC", advertiserInn: undefined },
    projectLanguage: "en",
    expected: [
      { ...plain, part: "photo", images: 1, words: null },
      { ...plain, part: "text", images: 0, words: `${NEAR_CAPTION}\n\nAd. Romashka LLC. erid: 2VtzqvXYZ1` },
    ],
  },
];
