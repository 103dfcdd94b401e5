import { Badge, Button, Card, Group, Skeleton, Stack, Text } from "@mantine/core";
import { mutate } from "swr";
import "@mantine/core/styles/Badge.layer.css";
import "@mantine/core/styles/Card.layer.css";
import "@mantine/core/styles/Skeleton.layer.css";
import { Fragment, type ReactNode, useEffect, useId, useRef, useState } from "react";
import type { SandboxButton, SandboxMessage, SandboxView } from "../../../contract/sandbox.ts";
import { hasStatus } from "../api/fetcher.ts";
import { pressButton, SANDBOX_KEY, sandboxFileUrl, useSandbox, writeStart } from "../api/sandbox.ts";
import { IconExternalLink, IconMegaphone, IconSend } from "../components/Icons/Icons.tsx";
import { LoadError } from "../components/LoadError/LoadError.tsx";
import { PageHeader } from "../components/PageHeader/PageHeader.tsx";
import { useLanguage, useT } from "../i18n/i18n.tsx";
import { LOCALES } from "../lib/formatDate.ts";
import { serverMessage } from "../lib/messages.ts";
import { usePageTitle } from "../lib/pageTitle.ts";
import { albumGroups, textPieces } from "../lib/sandboxText.ts";
import { toastError, toastSuccess } from "../lib/toast.ts";
import classes from "./Sandbox.module.css";

/**
 * The Telegram sandbox (`npm run demo`, docs/sandbox.md): Telegram simulated on this machine.
 * Beside the product, what its admin sees in the chat with the bot (previews, the buttons,
 * the connection question) and what the channel's subscribers see, so the whole loop of
 * connect, Allow, plan, preview, Approve and publish can be tried without a bot token.
 */
export default function SandboxPage() {
  const t = useT();
  usePageTitle(t("sandbox.title"));
  const { sandbox, error, isLoading } = useSandbox({ poll: true });

  if (hasStatus(error, 404)) {
    return (
      <>
        <PageHeader title={t("sandbox.title")} />
        <Card padding="lg" data-testid="sandbox-off">
          <Text>{t("sandbox.off")}</Text>
        </Card>
      </>
    );
  }
  return (
    <>
      <PageHeader
        title={t("sandbox.title")}
        description={sandbox
          ? t("sandbox.description", { channel: `@${sandbox.channel.username}`, admin: `@${sandbox.admin.username}` })
          : undefined}
      />
      {error !== undefined && !sandbox ? (
        <LoadError message={t("sandbox.loadFailed")} retryLabel={t("common.retry")} onRetry={() => void mutate(SANDBOX_KEY)} />
      ) : isLoading || !sandbox ? (
        <Skeleton height={320} radius="md" />
      ) : (
        <Stack gap="lg">
          <Steps sandbox={sandbox} />
          <div className={classes.panes}>
            <Chat sandbox={sandbox} />
            <Feed sandbox={sandbox} />
          </div>
        </Stack>
      )}
    </>
  );
}

function Steps({ sandbox }: { sandbox: SandboxView }) {
  const t = useT();
  const titleId = useId();
  const names = { admin: `@${sandbox.admin.username}`, channel: `@${sandbox.channel.username}` };
  return (
    <Card component="section" padding="lg" aria-labelledby={titleId}>
      <Text component="h2" fw={600} m={0} id={titleId}>
        {t("sandbox.stepsTitle")}
      </Text>
      <ol className={classes.steps}>
        <li>{t("sandbox.step1", names)}</li>
        <li>{t("sandbox.step2", names)}</li>
        <li>{t("sandbox.step3", names)}</li>
        <li>{t("sandbox.step4", names)}</li>
      </ol>
    </Card>
  );
}

/** Keeps a scrolled list at its newest message, as a chat does, unless the reader scrolled up. */
function useStickToBottom(count: number) {
  const ref = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  useEffect(() => {
    const box = ref.current;
    if (box && atBottom.current) box.scrollTop = box.scrollHeight;
  }, [count]);
  const onScroll = () => {
    const box = ref.current;
    if (box) atBottom.current = box.scrollHeight - box.scrollTop - box.clientHeight < 24;
  };
  return { ref, onScroll };
}

/** One side of Telegram: a title, what it shows, its messages in a scroll of their own (newest at the bottom). */
function Pane(
  { icon, title, hint, testId, count, empty, footer, children }: {
    icon: ReactNode;
    title: string;
    hint: string;
    testId: string;
    count: number;
    empty: string;
    footer?: ReactNode;
    children: ReactNode;
  },
) {
  const titleId = useId();
  const scroll = useStickToBottom(count);
  return (
    <Card component="section" padding={0} className={classes.pane} aria-labelledby={titleId} data-testid={testId}>
      <div className={classes.paneHeader}>
        {icon}
        <div>
          <Text component="h2" fw={600} m={0} id={titleId}>
            {title}
          </Text>
          <Text size="sm" c="dimmed">
            {hint}
          </Text>
        </div>
      </div>
      <div className={classes.messages} ref={scroll.ref} onScroll={scroll.onScroll} tabIndex={0} aria-labelledby={titleId} role="log">
        {count === 0 ? (
          <Text size="sm" c="dimmed" ta="center" py="xl">
            {empty}
          </Text>
        ) : children}
      </div>
      {footer && <div className={classes.composer}>{footer}</div>}
    </Card>
  );
}

function Chat({ sandbox }: { sandbox: SandboxView }) {
  const t = useT();
  const [starting, setStarting] = useState(false);
  const admin = `@${sandbox.admin.username}`;

  const start = async () => {
    setStarting(true);
    try {
      await writeStart();
    } catch (error) {
      toastError(t("sandbox.actionFailed"), serverMessage(t, error));
    } finally {
      setStarting(false);
    }
  };

  return (
    <Pane
      icon={<IconSend size={18} />}
      title={t("sandbox.chatTitle", { bot: sandbox.bot.name })}
      hint={t("sandbox.chatHint", { admin, bot: `@${sandbox.bot.username}` })}
      testId="sandbox-chat"
      count={sandbox.chat.length}
      empty={t("sandbox.chatEmpty", { admin })}
      footer={
        <Button variant="light" fullWidth loading={starting} onClick={() => void start()} data-testid="sandbox-start">
          {t("sandbox.writeStart")}
        </Button>
      }
    >
      {sandbox.chat.map((message) => <Bubble key={message.id} group={[message]} canPress />)}
    </Pane>
  );
}

function Feed({ sandbox }: { sandbox: SandboxView }) {
  const t = useT();
  return (
    <Pane
      icon={<IconMegaphone size={18} />}
      title={sandbox.channel.title}
      hint={t("sandbox.feedHint", { channel: `@${sandbox.channel.username}` })}
      testId="sandbox-feed"
      count={sandbox.feed.length}
      empty={t("sandbox.feedEmpty")}
    >
      {albumGroups(sandbox.feed).map((group) => <Bubble key={group[0].id} group={group} canPress={false} />)}
    </Pane>
  );
}

/** One message, or one album (its photos together, its caption under them), as a Telegram client draws it. */
function Bubble({ group, canPress }: { group: SandboxMessage[]; canPress: boolean }) {
  const t = useT();
  const { language } = useLanguage();
  const first = group[0];
  if (first.pinnedMessageId !== undefined) {
    return (
      <Text size="xs" c="dimmed" ta="center" className={classes.service} data-testid="sandbox-pin-notice">
        {t("sandbox.pinnedNotice")}
      </Text>
    );
  }
  const photos = group.flatMap((message) => (message.photo ? [message.photo] : []));
  const captioned = group.find((message) => message.text !== "") ?? first;
  const buttons = group.flatMap((message) => message.buttons.length > 0 ? [{ message, rows: message.buttons }] : []);
  const pinned = group.some((message) => message.pinned);
  const time = new Intl.DateTimeFormat(LOCALES[language], { hour: "2-digit", minute: "2-digit" })
    .format(new Date(group.at(-1)!.date * 1000));
  return (
    <div className={first.outgoing ? classes.outgoing : classes.incoming} data-testid="sandbox-message">
      <div className={classes.bubble}>
        {photos.length > 0 && (
          <div className={classes.photos} data-count={Math.min(photos.length, 4)}>
            {photos.map((photo, index) => (
              <img key={photo} src={sandboxFileUrl(photo)} alt={t("sandbox.photo", { n: index + 1, total: photos.length })} loading="lazy" />
            ))}
          </div>
        )}
        {captioned.text !== "" && <div className={classes.text}>{formatted(captioned)}</div>}
        <Group gap={6} justify="flex-end" className={classes.meta}>
          {pinned && (
            <Badge size="xs" variant="light" data-testid="sandbox-pinned">
              {t("sandbox.pinned")}
            </Badge>
          )}
          {group.some((message) => message.edited) && <Text size="xs" c="dimmed">{t("sandbox.edited")}</Text>}
          <Text size="xs" c="dimmed">{time}</Text>
        </Group>
      </div>
      {buttons.map(({ message, rows }) => <Keyboard key={message.id} message={message} rows={rows} canPress={canPress} />)}
    </div>
  );
}

function Keyboard({ message, rows, canPress }: { message: SandboxMessage; rows: SandboxButton[][]; canPress: boolean }) {
  const t = useT();
  const [pressing, setPressing] = useState<string | null>(null);
  const press = async (data: string) => {
    setPressing(data);
    try {
      const answer = await pressButton(message.id, data);
      if (answer) toastSuccess(t("sandbox.botAnswered"), answer);
    } catch (error) {
      toastError(hasStatus(error, 404) ? t("sandbox.buttonGone") : t("sandbox.actionFailed"), hasStatus(error, 404) ? undefined : serverMessage(t, error));
    } finally {
      setPressing(null);
    }
  };
  return (
    <div className={classes.keyboard}>
      {rows.map((row, index) => (
        <div key={index} className={classes.keyboardRow}>
          {row.map((button, column) =>
            button.url ? (
              <Button key={column} component="a" href={button.url} target="_blank" rel="noreferrer" variant="default" size="xs" rightSection={<IconExternalLink size={12} />}>
                {button.text}
              </Button>
            ) : (
              <Button
                key={column}
                variant="default"
                size="xs"
                disabled={!canPress || !button.data || (pressing !== null && pressing !== button.data)}
                loading={pressing === button.data}
                onClick={() => button.data && void press(button.data)}
              >
                {button.text}
              </Button>
            )
          )}
        </div>
      ))}
    </div>
  );
}

/** The text with its entities drawn: bold, italic, links, code, spoilers, quotes. */
function formatted(message: SandboxMessage): ReactNode {
  return textPieces(message.text, message.entities).map((piece, index) => (
    <Fragment key={index}>{piece.entities.reduceRight<ReactNode>((inner, entity) => wrap(entity.type, inner, entity.url ?? piece.text), piece.text)}</Fragment>
  ));
}

function wrap(type: string, inner: ReactNode, url: string): ReactNode {
  switch (type) {
    case "bold":
      return <strong>{inner}</strong>;
    case "italic":
      return <em>{inner}</em>;
    case "underline":
      return <u>{inner}</u>;
    case "strikethrough":
      return <s>{inner}</s>;
    case "code":
    case "pre":
      return <code>{inner}</code>;
    case "spoiler":
      return <span className={classes.spoiler}>{inner}</span>;
    case "blockquote":
    case "expandable_blockquote":
      return <span className={classes.quote}>{inner}</span>;
    case "text_link":
    case "url":
      return <a href={/^https?:\/\//i.test(url) ? url : `https://${url}`} target="_blank" rel="noreferrer">{inner}</a>;
    default:
      return inner;
  }
}
