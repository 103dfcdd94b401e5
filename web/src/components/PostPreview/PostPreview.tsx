import { useState, type KeyboardEvent, type ReactNode } from "react";
import type { Ad } from "../../../../contract/ads.ts";
import type { Post } from "../../../../contract/posts.ts";
import { isAllowedLink, type MessageEntity, sortEntities } from "../../../../contract/entities.ts";
import type { UrlButton } from "../../../../contract/post_options.ts";
import { type PlannedMessage, planPost } from "../../../../contract/post_plan.ts";
import { useT } from "../../i18n/i18n.tsx";
import { IconBellOff, IconChevronDown, IconPin } from "../Icons/Icons.tsx";
import classes from "./PostPreview.module.css";

type PostPreviewProps = {
  text: string;
  entities: readonly MessageEntity[];
  imageUrl?: string | null;
  /** An album (2–10 images) shows as a grid; when given it wins over `imageUrl`. */
  imageUrls?: readonly string[];
  buttons?: UrlButton[][];
  /** Marks the messages the channel gets without a sound. */
  silent?: boolean;
  /** Marks the message that gets pinned. */
  pin?: boolean;
  /** The channel's (or project's) name over the bubble; its first letter is the avatar. */
  channelName?: string;
  /** The time in the bubble's corner, already formatted ("12:30"). */
  time?: string;
  /** A sold post: its label goes last, in the project's language, as the channel will read it. */
  ad?: Ad | null;
  projectLanguage?: string;
};

type RangeNode = { entity: MessageEntity | null; start: number; end: number; children: RangeNode[] };

/**
 * The entities as a tree of ranges, outer first (Telegram's order). Entities that overlap
 * partly (never after the API's check, possible while typing) are clipped to the one they
 * start in, so rendering never throws or repeats text.
 */
function rangeTree(text: string, entities: readonly MessageEntity[]): RangeNode {
  const root: RangeNode = { entity: null, start: 0, end: text.length, children: [] };
  const open: RangeNode[] = [root];
  for (const entity of sortEntities(entities)) {
    const start = entity.offset;
    while (open.length > 1 && open.at(-1)!.end <= start) open.pop();
    const parent = open.at(-1)!;
    const end = Math.min(entity.offset + entity.length, parent.end);
    if (start < parent.start || start >= end) continue;
    const node: RangeNode = { entity, start, end, children: [] };
    parent.children.push(node);
    open.push(node);
  }
  return root;
}

/** Telegram's spoiler: veiled until clicked, tapped or focused. */
function Spoiler({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState(false);
  const reveal = () => setShown(true);
  return (
    <span
      className={classes.spoiler}
      data-hidden={shown ? undefined : true}
      tabIndex={shown ? undefined : 0}
      onClick={reveal}
      onFocus={reveal}
      onKeyDown={(event: KeyboardEvent) => (event.key === "Enter" || event.key === " ") && reveal()}
      data-testid="preview-spoiler"
    >
      {children}
    </span>
  );
}

function ExpandableQuote({ children }: { children: ReactNode }) {
  const t = useT();
  const [expanded, setExpanded] = useState(false);
  return (
    <blockquote className={classes.quote} data-expandable data-expanded={expanded || undefined}>
      <span className={classes.quoteText}>{children}</span>
      <button
        type="button"
        className={classes.expand}
        aria-expanded={expanded}
        aria-label={t(expanded ? "postPreview.collapseQuote" : "postPreview.expandQuote")}
        onClick={() => setExpanded(!expanded)}
      >
        <IconChevronDown size={14} className={classes.chevron} />
      </button>
    </blockquote>
  );
}

function renderEntity(entity: MessageEntity, key: number, children: ReactNode): ReactNode {
  switch (entity.type) {
    case "bold":
      return <strong key={key}>{children}</strong>;
    case "italic":
      return <em key={key}>{children}</em>;
    case "underline":
      return <u key={key}>{children}</u>;
    case "strikethrough":
      return <s key={key}>{children}</s>;
    case "spoiler":
      return <Spoiler key={key}>{children}</Spoiler>;
    case "code":
      return <code key={key}>{children}</code>;
    case "pre":
      return (
        <pre key={key} className={classes.pre} data-language={entity.language}>
          <code>{children}</code>
        </pre>
      );
    case "text_link":
      return entity.url && isAllowedLink(entity.url)
        ? (
          <a key={key} href={entity.url} target="_blank" rel="noopener noreferrer">
            {children}
          </a>
        )
        : <span key={key}>{children}</span>;
    case "blockquote":
      return <blockquote key={key} className={classes.quote}>{children}</blockquote>;
    case "expandable_blockquote":
      return <ExpandableQuote key={key}>{children}</ExpandableQuote>;
    default:
      return <span key={key}>{children}</span>;
  }
}

/** Text and React elements only: nothing in the text is ever read as markup. */
function renderNode(text: string, node: RangeNode): ReactNode[] {
  const parts: ReactNode[] = [];
  let at = node.start;
  node.children.forEach((child, index) => {
    if (child.start > at) parts.push(text.slice(at, child.start));
    parts.push(renderEntity(child.entity!, index, renderNode(text, child)));
    at = child.end;
  });
  if (at < node.end) parts.push(text.slice(at, node.end));
  return parts;
}

/** The formatted text alone, as Telegram renders it (text + entities in UTF-16 ranges). */
export function FormattedMessage({ text, entities }: { text: string; entities: readonly MessageEntity[] }) {
  return <>{renderNode(text, rangeTree(text, entities))}</>;
}

/** URL buttons under a message, as Telegram draws them. */
function ButtonRows({ rows }: { rows: UrlButton[][] }) {
  return (
    <div className={classes.buttons} data-testid="post-preview-buttons">
      {rows.map((row, r) => (
        <div key={r} className={classes.buttonRow}>
          {row.map((button, b) =>
            isAllowedLink(button.url)
              ? (
                <a key={b} className={classes.button} href={button.url} target="_blank" rel="noopener noreferrer">
                  {button.text}
                </a>
              )
              : (
                <span key={b} className={classes.button}>
                  {button.text}
                </span>
              )
          )}
        </div>
      ))}
    </div>
  );
}

/** What the preview of a post's own text, images, options and ad label takes (the details, the review page). */
export function postPreviewProps(
  post: Pick<Post, "content" | "entities" | "imageUrl" | "imageUrls" | "options"> & { ad?: Ad | null },
  projectLanguage?: string,
): PostPreviewProps {
  return {
    ad: post.ad,
    projectLanguage,
    text: post.content,
    entities: post.entities ?? [],
    imageUrls: post.imageUrls,
    imageUrl: post.imageUrl,
    buttons: post.options?.buttons,
    silent: post.options?.silent,
    pin: post.options?.pin,
  };
}

/**
 * A post as a Telegram channel shows it (issue 16 §7): the channel's name and avatar, then the
 * messages the channel gets, drawn from the sender's own plan (contract/post_plan.ts): an album
 * or photo with its caption or without, a text message of its own when the caption would not
 * fit or the album has buttons, the URL buttons under the last message, the pin and silence marks.
 */
export function PostPreview({ text, entities, imageUrl, imageUrls, buttons, silent, pin, channelName, time, ad, projectLanguage }: PostPreviewProps) {
  const t = useT();
  const rows = (buttons ?? []).map((row) => row.filter((button) => button.text.trim() !== "")).filter((row) => row.length > 0);
  const plan = planPost({ title: "", content: text, entities, imageUrl, imageUrls, options: { buttons: rows, silent, pin }, ad, projectLanguage });
  const name = channelName?.trim() || t("postPreview.channel");
  const stamp = time ? <span className={classes.time}>{time}</span> : null;

  const media = (images: string[]) =>
    images.length > 1
      ? (
        <div className={classes.album} data-count={images.length} data-testid="post-preview-album">
          {images.map((url, index) => <img key={`${index}:${url}`} src={url} alt="" className={classes.albumImage} loading="lazy" />)}
        </div>
      )
      : <img src={images[0]} alt="" className={classes.image} loading="lazy" />;

  const message = (planned: PlannedMessage, index: number) => {
    const withImage = planned.images.length > 0;
    const words = planned.text?.text.trim() ? planned.text : null;
    return (
      <div key={index} className={classes.message} data-testid="post-preview-message" data-part={planned.part}>
        <div className={classes.bubble} data-with-image={withImage || undefined}>
          {withImage && media(planned.images)}
          {(words || !withImage) && (
            <div className={classes.text} data-testid="post-preview-text" data-caption={withImage || undefined}>
              {words ? <FormattedMessage text={words.text} entities={words.entities} /> : <span className={classes.empty}>{t("postPreview.empty")}</span>}
              {stamp}
            </div>
          )}
          {withImage && !words && stamp && <div className={classes.imageTime}>{stamp}</div>}
        </div>
        {planned.buttons.length > 0 && <ButtonRows rows={planned.buttons} />}
        {(planned.pinned || planned.silent) && (
          <div className={classes.marks}>
            {planned.pinned && (
              <span className={classes.mark} data-testid="post-preview-pinned">
                <IconPin size={14} />
                {t("postPreview.pinned")}
              </span>
            )}
            {planned.silent && (
              <span className={classes.mark} data-testid="post-preview-silent">
                <IconBellOff size={14} />
                {t("postPreview.silent")}
              </span>
            )}
          </div>
        )}
      </div>
    );
  };

  return (
    <div className={classes.root} data-testid="post-preview">
      <div className={classes.channel}>
        <span className={classes.avatar} aria-hidden="true">
          {Array.from(name)[0]?.toUpperCase()}
        </span>
        <span className={classes.name}>{name}</span>
      </div>
      <div className={classes.messages}>{plan.map(message)}</div>
    </div>
  );
}

export default PostPreview;
