import { Button, SegmentedControl, Stack, Text, TextInput, Title } from "@mantine/core";
import "@mantine/core/styles/SegmentedControl.layer.css";
import { useRef, useState, type FormEvent } from "react";
import * as v from "valibot";
import { CodeSchema, EmailSchema } from "../../../contract/auth.ts";
import { SIGN_IN_CODE_LENGTH } from "../../../contract/limits.ts";
import { requestCode, verifyCode } from "../api/auth.ts";
import { hasStatus } from "../api/fetcher.ts";
import { IconCalendar, IconMail, IconShield, IconSparkles, PressaMark } from "../components/Icons/Icons.tsx";
import { LANGUAGES } from "../../../contract/limits.ts";
import { type Language, useLanguage, useT } from "../i18n/i18n.tsx";
import { errorText, failureText, serverMessage } from "../lib/messages.ts";
import { usePageTitle } from "../lib/pageTitle.ts";
import { toastError } from "../lib/toast.ts";
import classes from "./Auth.module.css";

type Step = { name: "email" } | { name: "code"; email: string; alreadySent: boolean };

export default function AuthPage() {
  const t = useT();
  usePageTitle(t("auth.pageTitle"));
  const [step, setStep] = useState<Step>({ name: "email" });

  return (
    <div className={classes.root}>
      <WelcomePanel />
      <main className={classes.formSide}>
        <LanguageSwitch />
        <div className={classes.formBox}>
          <div className={classes.mobileBrand}>
            <PressaMark size={28} />
            Pressa
          </div>
          {step.name === "email" ? (
            <EmailStep onSent={(email, alreadySent) => setStep({ name: "code", email, alreadySent })} />
          ) : (
            <CodeStep email={step.email} alreadySent={step.alreadySent} onBack={() => setStep({ name: "email" })} />
          )}
        </div>
      </main>
    </div>
  );
}

function EmailStep({ onSent }: { onSent: (email: string, alreadySent: boolean) => void }) {
  const t = useT();
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string>();
  const [sending, setSending] = useState(false);

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = v.safeParse(EmailSchema, email);
    if (!parsed.success) {
      setError(errorText(t, parsed.issues[0].message));
      return;
    }
    setSending(true);
    try {
      const { codeAlreadySent } = await requestCode(parsed.output);
      onSent(parsed.output, codeAlreadySent);
    } catch (failure) {
      // Spec §4/§8: this page swallows a failed code request. The one exception is the
      // "too many codes" answer, which the person can act on by waiting, so it is shown.
      if (hasStatus(failure, 429)) setError(failureText(t, failure, "auth.tooManyCodes"));
      setSending(false);
    }
  };

  return (
    <form onSubmit={(event) => void handleSubmit(event)} noValidate>
      <Stack gap="lg">
        <div>
          <Title order={1} mb={6}>
            {t("auth.title")}
          </Title>
          <Text c="dimmed">{t("auth.subtitle")}</Text>
        </div>
        <TextInput
          label={t("auth.email")}
          placeholder={t("auth.emailPlaceholder")}
          type="email"
          autoComplete="email"
          inputMode="email"
          size="md"
          autoFocus
          value={email}
          onChange={(event) => {
            setEmail(event.currentTarget.value);
            setError(undefined);
          }}
          error={error}
          data-testid="email-input"
        />
        <Button type="submit" size="md" fullWidth loading={sending} data-testid="request-code">
          {t("auth.getCode")}
        </Button>
        <Text size="xs" c="dimmed" ta="center">
          {t("auth.noPassword")}
        </Text>
      </Stack>
    </form>
  );
}

type CodeStepProps = { email: string; alreadySent: boolean; onBack: () => void };

function CodeStep({ email, alreadySent, onBack }: CodeStepProps) {
  const t = useT();
  const [code, setCode] = useState("");
  const [error, setError] = useState<string>();
  const [verifying, setVerifying] = useState(false);

  // one verification at a time: the sixth digit sends the code, and Enter may follow it
  const inFlight = useRef(false);
  const submit = async (typed: string) => {
    if (inFlight.current) return;
    const parsed = v.safeParse(CodeSchema, typed);
    if (!parsed.success) {
      setError(errorText(t, parsed.issues[0].message));
      return;
    }
    setVerifying(true);
    inFlight.current = true;
    try {
      // On success the session is cached and the /auth guard moves on to the app.
      await verifyCode(email, parsed.output);
    } catch (failure) {
      toastError(t("auth.verificationFailed"), serverMessage(t, failure));
      setVerifying(false);
      inFlight.current = false;
    }
  };

  return (
    <form
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void submit(code);
      }}
      noValidate
    >
      <Stack gap="lg">
        <div>
          <Title order={1} mb={6}>
            {t("auth.checkEmail")}
          </Title>
          <Text c="dimmed" data-testid="code-prompt">
            {alreadySent ? t("auth.codeAlreadySent") : t("auth.codeSent")}
          </Text>
        </div>
        <div className={classes.sentTo}>
          <IconMail size={18} />
          <Text size="sm" fw={500} data-testid="sent-to">
            {email}
          </Text>
        </div>
        <TextInput
          label={t("auth.code")}
          placeholder={"•".repeat(SIGN_IN_CODE_LENGTH)}
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={SIGN_IN_CODE_LENGTH}
          autoFocus
          value={code}
          onChange={(event) => {
            // a pasted "123 456" is the code; its last digit sends it, as a phone's code fields do
            const typed = event.currentTarget.value.replace(/\s/g, "");
            setCode(typed);
            setError(undefined);
            if (typed.length === SIGN_IN_CODE_LENGTH && /^\d+$/.test(typed)) void submit(typed);
          }}
          error={error}
          classNames={{ input: classes.codeInput }}
          data-testid="code-input"
        />
        <Stack gap="xs">
          <Button type="submit" size="md" fullWidth loading={verifying} data-testid="verify-code">
            {t("auth.verify")}
          </Button>
          <Button variant="subtle" color="gray" fullWidth onClick={onBack} disabled={verifying}>
            {t("auth.useDifferentEmail")}
          </Button>
        </Stack>
      </Stack>
    </form>
  );
}

/**
 * The interface language before sign-in: the same choice as in Settings (kept in this
 * browser), so an English speaker need not meet the product in Russian first.
 */
function LanguageSwitch() {
  const t = useT();
  const { language, setLanguage } = useLanguage();
  return (
    <SegmentedControl
      className={classes.language}
      size="xs"
      value={language}
      onChange={(next) => (LANGUAGES as readonly string[]).includes(next) && setLanguage(next as Language)}
      data={[
        { value: "ru", label: t("language.ru") },
        { value: "en", label: t("language.en") },
      ]}
      aria-label={t("settings.language")}
      data-testid="auth-language"
    />
  );
}

function WelcomePanel() {
  const t = useT();
  const features = [
    { icon: <IconSparkles size={18} />, title: t("auth.feature.ai"), text: t("auth.feature.aiText") },
    { icon: <IconCalendar size={18} />, title: t("auth.feature.calendar"), text: t("auth.feature.calendarText") },
    { icon: <IconShield size={18} />, title: t("auth.feature.moderation"), text: t("auth.feature.moderationText") },
  ];

  return (
    <aside className={classes.panel}>
      <Text fw={700} size="lg" style={{ display: "flex", alignItems: "center", gap: 10 }}>
        <PressaMark size={30} inverted />
        Pressa
      </Text>
      <div>
        <Title order={2} fz={36} lh={1.15} maw={480}>
          {t("auth.welcomeTitle")}
        </Title>
        <Text mt="md" size="lg" maw={480} opacity={0.85}>
          {t("auth.welcomeText")}
        </Text>
        <ul className={classes.features}>
          {features.map((feature) => (
            <li key={feature.title} className={classes.feature}>
              <span className={classes.featureIcon}>{feature.icon}</span>
              <div>
                <Text fw={600}>{feature.title}</Text>
                <Text size="sm" opacity={0.8}>
                  {feature.text}
                </Text>
              </div>
            </li>
          ))}
        </ul>
      </div>
      <Text size="xs" opacity={0.6}>
        {t("auth.panelFootnote")}
      </Text>
    </aside>
  );
}
