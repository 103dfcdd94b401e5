import { Alert, Badge, Button, Modal, Radio, Stack, Text, TextInput } from "@mantine/core";
import "@mantine/core/styles/Alert.layer.css";
import "@mantine/core/styles/Badge.layer.css";
import "@mantine/core/styles/Modal.layer.css";
import "@mantine/core/styles/RadioCard.layer.css";
import "@mantine/core/styles/RadioIndicator.layer.css";
import { useEffect, useState, type FormEvent } from "react";
import { Link } from "react-router-dom";
import * as v from "valibot";
import { ChannelCreateSchema, channelUsername } from "../../../../contract/channels.ts";
import type { ErrorCode } from "../../../../contract/error_codes.ts";
import { PLATFORMS, WORKING_PLATFORMS } from "../../../../contract/limits.ts";
import { addChannel, useTelegramBot, type ChannelInput } from "../../api/channels.ts";
import { useSandbox } from "../../api/sandbox.ts";
import { ApiRequestError } from "../../api/fetcher.ts";
import { useIsPhone } from "../../hooks/useIsPhone.ts";
import { useT, type TFunction, type TranslationKey } from "../../i18n/i18n.tsx";
import { errorText, failureText, hasCode } from "../../lib/messages.ts";
import { toastError, toastSuccess } from "../../lib/toast.ts";
import { IconAlert, IconExternalLink, IconInfo, IconLink } from "../Icons/Icons.tsx";
import { PLATFORM_NAMES, PlatformMark, type Platform } from "../PlatformMark/PlatformMark.tsx";
import classes from "./AddChannelDialog.module.css";

type AddChannelDialogProps = {
  projectId: number;
  adminHandle: string;
  /** The project already has its one channel (spec §5): the dialog refuses to stay open. */
  limitReached: boolean;
  opened: boolean;
  onClose: () => void;
};

const isWorking = (platform: Platform) => (WORKING_PLATFORMS as readonly string[]).includes(platform);

/** Channel errors said with the channel's and the bot's names, as the dialog knows them. */
const CHANNEL_ERRORS = new Set<string>([
  "channels.notFound",
  "channels.notAChannel",
  "channels.botNotAdmin",
  "channels.missingPostPermission",
  "channels.platformUnavailable",
  "telegram.notConfigured",
  "telegram.unreachable",
] satisfies ErrorCode[]);

type ErrorContext = { handle: string; bot: string; channel: string };

/**
 * Spec §8: when the admin has not messaged the bot the dedicated instruction shows; known
 * Telegram answers get our own wording; anything else is worded by its code. The spec's client
 * found the first case in the message's English; ours has the code for it
 * (channels.adminNotRegistered), and a refusal that names the admin for another reason
 * (a request already waiting, a refused account) has words of its own.
 */
function connectFailureText(t: TFunction, error: unknown, { handle, bot, channel }: ErrorContext): string {
  const code = error instanceof ApiRequestError ? error.body?.code : undefined;
  // These name the admin too, but are not about writing to the bot.
  if (code === "channels.approverNotAdmin") return t("channels.approverNotAdmin", { handle, channel });
  if (code === "channels.alreadyConnected") return t("channels.alreadyConnected", { channel });
  if (code === "channels.adminNotRegistered") {
    return bot ? t("channels.adminNotRegistered", { handle, bot }) : t("channels.error.adminNotRegisteredNoBot", { handle });
  }
  if (code && CHANNEL_ERRORS.has(code)) return t(code as TranslationKey, { channel, bot: bot || t("channels.ourBot") });
  return failureText(t, error, "channels.connectFailedText");
}

export function AddChannelDialog({ projectId, adminHandle, limitReached, opened, onClose }: AddChannelDialogProps) {
  const t = useT();
  const handle = adminHandle.replace(/^@/, "");
  const { bot, notConfigured } = useTelegramBot(opened);
  // with `npm run demo` the bot lives in the Telegram sandbox, not on t.me
  const { on: sandboxOn } = useSandbox({ poll: false });
  const isPhone = useIsPhone();
  const [platform, setPlatform] = useState<Platform>("telegram");
  const [link, setLink] = useState("");
  const [linkError, setLinkError] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const [connecting, setConnecting] = useState(false);

  // Spec §5: one channel per project. Should the dialog open anyway, it says so and closes.
  useEffect(() => {
    if (opened && limitReached && !connecting) {
      toastError(t("channels.limitReachedTitle"), t("channels.limitReachedText"));
      onClose();
    }
  }, [opened, limitReached, connecting, onClose, t]);

  // A fresh form every time the dialog opens.
  useEffect(() => {
    if (!opened) return;
    setPlatform("telegram");
    setLink("");
    setLinkError(undefined);
    setFailure(undefined);
  }, [opened]);

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (notConfigured) return;
    const parsed = v.safeParse(ChannelCreateSchema, { type: platform, link });
    if (!parsed.success) {
      setLinkError(errorText(t, parsed.issues[0].message));
      return;
    }
    const input: ChannelInput = { type: parsed.output.type, link: parsed.output.link };
    setConnecting(true);
    setFailure(undefined);
    try {
      const channel = await addChannel(projectId, input);
      if (channel.awaiting) toastSuccess(t("channels.requested"), t("channels.requestedText", { handle: channel.awaiting.handle }));
      else toastSuccess(t("channels.connected"), channel.link);
      onClose();
    } catch (error) {
      if (hasCode(error, "channels.limitReached")) {
        toastError(t("channels.limitReachedTitle"), t("channels.limitReachedText"));
        onClose();
      } else if (hasCode(error, "channels.linkRequired", "channels.linkInvalid", "channels.platformInvalid")) {
        setLinkError(failureText(t, error, "channels.connectFailedText"));
      } else {
        const username = channelUsername(input.link);
        const text = connectFailureText(t, error, {
          handle,
          bot: bot?.username ?? "",
          channel: username ? `@${username}` : input.link,
        });
        // Shown in the dialog, next to the link, until the next try: the person usually fixes
        // something in Telegram first, longer than a toast stays.
        setFailure(text);
      }
    } finally {
      setConnecting(false);
    }
  };

  const botName = bot ? `@${bot.username}` : null;

  return (
    <Modal
      opened={opened && !limitReached}
      onClose={connecting ? () => {} : onClose}
      title={t("channels.addTitle")}
      size={560}
      fullScreen={isPhone}
      closeButtonProps={{ "aria-label": t("common.close") }}
    >
      <form onSubmit={(event) => void handleSubmit(event)} noValidate>
        <Stack gap="lg">
          {notConfigured && (
            <Alert variant="light" color="yellow" icon={<IconInfo size={18} />} data-testid="bot-not-configured">
              <Text size="sm">{t("channels.botNotConfigured")}</Text>
              <Text size="sm" mt={4}>
                {t("channels.botNotConfiguredStep")} <code>TELEGRAM_BOT_TOKEN</code>
              </Text>
            </Alert>
          )}
          <Radio.Group
            label={t("channels.platform")}
            value={platform}
            onChange={(value) => setPlatform(value as Platform)}
          >
            <div className={classes.platforms}>
              {PLATFORMS.map((item) => {
                const working = isWorking(item);
                return (
                  <Radio.Card
                    key={item}
                    value={item}
                    withBorder
                    disabled={!working || connecting}
                    className={classes.platform}
                    aria-label={working ? PLATFORM_NAMES[item] : `${PLATFORM_NAMES[item]} — ${t("channels.comingSoon")}`}
                    data-testid={`platform-${item}`}
                  >
                    <span className={classes.platformMark}>
                      <PlatformMark platform={item} size={24} />
                    </span>
                    <Text size="sm" fw={600} c={working ? undefined : "dimmed"} className={classes.platformName}>
                      {PLATFORM_NAMES[item]}
                    </Text>
                    {working ? (
                      <Radio.Indicator size="xs" />
                    ) : (
                      <Badge size="xs" variant="light" color="gray">
                        {t("common.soon")}
                      </Badge>
                    )}
                  </Radio.Card>
                );
              })}
            </div>
          </Radio.Group>

          <div>
            <Text size="sm" fw={600} mb={6}>
              {t("channels.howTo")}
            </Text>
            <ol className={classes.steps}>
              <li className={classes.step}>
                <div>
                  <Text size="sm" fw={600}>
                    {t("channels.step0Title")}
                  </Text>
                  <Text size="sm" c="dimmed" mt={2}>
                    <span className={classes.handle}>@{handle}</span> {t("channels.step0Text")}
                  </Text>
                </div>
              </li>
              <li className={classes.step}>
                <div>
                  <Text size="sm" fw={600}>
                    {t("channels.step1Title")}
                  </Text>
                  <Text size="sm" c="dimmed" mt={2}>
                    <span className={classes.handle}>@{handle}</span>{" "}
                    {botName ? t("channels.step1WithBot", { bot: botName }) : t("channels.step1NoBot")}
                  </Text>
                  {bot && sandboxOn && (
                    <Button component={Link} to="/sandbox" size="compact-sm" variant="light" mt={8} data-testid="bot-link">
                      {t("channels.openSandbox")}
                    </Button>
                  )}
                  {bot && !sandboxOn && (
                    <Button
                      component="a"
                      href={`https://t.me/${bot.username}`}
                      target="_blank"
                      rel="noreferrer"
                      size="compact-sm"
                      variant="light"
                      mt={8}
                      rightSection={<IconExternalLink size={14} />}
                      data-testid="bot-link"
                    >
                      {t("channels.openBot", { bot: botName ?? "" })}
                    </Button>
                  )}
                </div>
              </li>
              <li className={classes.step}>
                <div>
                  <Text size="sm" fw={600}>
                    {t("channels.step2Title")}
                  </Text>
                  <Text size="sm" c="dimmed" mt={2}>
                    {botName ? t("channels.step2WithBot", { bot: botName }) : t("channels.step2NoBot")}
                  </Text>
                </div>
              </li>
            </ol>
          </div>

          <TextInput
            label={t("channels.link")}
            description={t("channels.linkHint")}
            placeholder={t("channels.linkPlaceholder")}
            leftSection={<IconLink size={16} />}
            autoComplete="off"
            spellCheck={false}
            data-autofocus
            disabled={connecting}
            value={link}
            onChange={(event) => {
              setLink(event.currentTarget.value);
              setLinkError(undefined);
            }}
            error={linkError}
            data-testid="channel-link"
          />

          {failure && (
            <Alert
              variant="light"
              color="red"
              title={t("channels.connectFailed")}
              styles={{ title: { marginBottom: 4 } }}
              icon={<IconAlert size={18} />}
              data-testid="connect-error"
            >
              <Text size="sm">{failure}</Text>
            </Alert>
          )}

          <div className={classes.footer}>
            {connecting && (
              <Text size="sm" c="dimmed" className={classes.checking} role="status">
                {t("channels.checking")}
              </Text>
            )}
            <Button variant="default" onClick={onClose} disabled={connecting}>
              {t("common.cancel")}
            </Button>
            {/* with no bot the request could only fail: the operator's step comes first */}
            <Button type="submit" loading={connecting} disabled={notConfigured} data-testid="connect-channel">
              {t("channels.connect")}
            </Button>
          </div>
        </Stack>
      </form>
    </Modal>
  );
}
