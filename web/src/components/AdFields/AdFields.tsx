import { Button, Collapse, Group, NativeSelect, NumberInput, Stack, Switch, Text, TextInput } from "@mantine/core";
import "@mantine/core/styles/NumberInput.layer.css";
import "@mantine/core/styles/Switch.layer.css";
import { useId } from "react";
import {
  AD_ADVERTISER_MAX,
  AD_BOT_DELETE_LIMIT_MINUTES,
  AD_CURRENCIES,
  AD_ERID_MAX,
  AD_FEED_MINUTES_MAX,
  AD_FORMATS,
  AD_TOP_MINUTES_MAX,
  type Ad,
  type AdCurrency,
  type AdFormatId,
} from "../../../../contract/ads.ts";
import { useLanguage, useT } from "../../i18n/i18n.tsx";
import { type AdErrors, type AdValues, durationText, formatName, formatOfValues, withFormat } from "../../lib/adForm.ts";
import { LOCALES } from "../../lib/formatDate.ts";
import { errorText } from "../../lib/messages.ts";
import optionClasses from "../PostOptionsFields/PostOptionsFields.module.css";
import { SectionToggle } from "../PostOptionsFields/SectionToggle.tsx";
import classes from "./AdFields.module.css";

type AdFieldsProps = {
  value: AdValues;
  onChange: (value: AdValues) => void;
  opened: boolean;
  onToggle: () => void;
  /** The fields' problems by code (lib/adForm.ts validateAd), once a save was tried. */
  errors: AdErrors;
  disabled?: boolean;
};

/** The words of a preset's button: "1/24", …, "Without removal". */
function formatLabel(t: ReturnType<typeof useT>, id: AdFormatId): string {
  return id === "keep" ? t("adForm.formatKeep") : id;
}

/** The hint under the input, so the inputs of a pair line up whatever their hints' length. */
const UNDER: ("label" | "input" | "description" | "error")[] = ["label", "input", "description", "error"];

/** An ad's format as the owner sold it: a preset's name, else its hours ("1.5/36"). */
export function adFormatText(t: ReturnType<typeof useT>, ad: Pick<Ad, "topMinutes" | "feedMinutes">): string {
  const name = formatName(ad);
  return name.id ? formatLabel(t, name.id) : name.text;
}

/**
 * The draft editor's "Advertising" section (issue 37): a switch, then the advertiser, INN, erid,
 * a format preset that fills the minutes on top and in the feed (which stay editable and read
 * in words), and the price. The label these make is shown by the preview, never typed.
 */
export function AdFields({ value, onChange, opened, onToggle, errors, disabled }: AdFieldsProps) {
  const t = useT();
  const { language } = useLanguage();
  const locale = LOCALES[language];
  const panelId = useId();
  const formatLabelId = useId();
  const set = <K extends keyof AdValues>(key: K, next: AdValues[K]) => onChange({ ...value, [key]: next });
  const format = formatOfValues(value);
  const summary = value.enabled
    ? [format ? formatLabel(t, format) : t("adForm.formatOwn"), value.advertiser.trim()].filter(Boolean).join(" · ")
    : "";
  const top = typeof value.topMinutes === "number" ? value.topMinutes : null;
  const feed = typeof value.feedMinutes === "number" ? value.feedMinutes : null;
  const error = (field: keyof AdErrors) => errors[field] && errorText(t, errors[field]);

  return (
    <div className={optionClasses.options} data-testid="ad-section">
      <SectionToggle title={t("adForm.title")} summary={summary} opened={opened} onToggle={onToggle} controls={panelId} testId="ad-toggle" />
      <Collapse expanded={opened} id={panelId}>
        <Stack gap="sm" className={optionClasses.optionsPanel} data-testid="ad-fields">
          <Switch
            label={t("adForm.enabled")}
            description={t("adForm.enabledHint")}
            checked={value.enabled}
            onChange={(event) => set("enabled", event.currentTarget.checked)}
            disabled={disabled}
            data-testid="ad-enabled"
          />
          {value.enabled && (
            <>
              <TextInput
                label={t("adForm.advertiser")}
                placeholder={t("adForm.advertiserPlaceholder")}
                withAsterisk
                maxLength={AD_ADVERTISER_MAX}
                value={value.advertiser}
                onChange={(event) => set("advertiser", event.currentTarget.value)}
                error={error("advertiser")}
                disabled={disabled}
                data-testid="ad-advertiser"
              />
              <div className={classes.pair}>
                <TextInput
                  label={t("adForm.inn")}
                  description={t("adForm.innHint")}
                  inputMode="numeric"
                  maxLength={12}
                  value={value.advertiserInn}
                  onChange={(event) => set("advertiserInn", event.currentTarget.value)}
                  error={error("advertiserInn")}
                  disabled={disabled}
                  inputWrapperOrder={UNDER}
                  data-testid="ad-inn"
                />
                <TextInput
                  label={t("adForm.erid")}
                  description={t("adForm.eridHint")}
                  withAsterisk
                  maxLength={AD_ERID_MAX}
                  spellCheck={false}
                  autoCapitalize="off"
                  value={value.erid}
                  onChange={(event) => set("erid", event.currentTarget.value)}
                  error={error("erid")}
                  disabled={disabled}
                  inputWrapperOrder={UNDER}
                  data-testid="ad-erid"
                />
              </div>
              <div>
                <Text id={formatLabelId} size="sm" fw={500} mb={4}>
                  {t("adForm.format")}
                </Text>
                <Group gap={6} role="group" aria-labelledby={formatLabelId} data-testid="ad-formats">
                  {AD_FORMATS.map(({ id }) => (
                    <Button
                      key={id}
                      size="xs"
                      variant={format === id ? "filled" : "default"}
                      aria-pressed={format === id}
                      onClick={() => onChange(withFormat(value, id))}
                      disabled={disabled}
                      data-testid="ad-format"
                      data-format={id}
                    >
                      {formatLabel(t, id)}
                    </Button>
                  ))}
                  {format === null && (
                    <Text span size="xs" className={optionClasses.hint} data-testid="ad-format-own">
                      {t("adForm.formatOwn")}
                    </Text>
                  )}
                </Group>
              </div>
              <div className={classes.pair}>
                <NumberInput
                  label={t("adForm.topMinutes")}
                  description={top === null ? t("adForm.topHint") : t("adForm.topWords", { duration: durationText(top, locale) })}
                  min={0}
                  max={AD_TOP_MINUTES_MAX}
                  allowDecimal={false}
                  allowNegative={false}
                  value={value.topMinutes}
                  onChange={(next) => set("topMinutes", next)}
                  error={error("topMinutes")}
                  disabled={disabled}
                  inputWrapperOrder={UNDER}
                  data-testid="ad-top-minutes"
                />
                <NumberInput
                  label={t("adForm.feedMinutes")}
                  description={feedWords(t, feed, locale)}
                  min={0}
                  max={AD_FEED_MINUTES_MAX}
                  allowDecimal={false}
                  allowNegative={false}
                  value={value.feedMinutes}
                  onChange={(next) => set("feedMinutes", next)}
                  error={error("feedMinutes")}
                  disabled={disabled}
                  inputWrapperOrder={UNDER}
                  data-testid="ad-feed-minutes"
                />
              </div>
              <div className={classes.price}>
                <NumberInput
                  className={classes.grow}
                  label={t("adForm.price")}
                  description={t("adForm.priceHint")}
                  min={0}
                  decimalScale={2}
                  allowNegative={false}
                  thousandSeparator=" "
                  value={value.priceAmount}
                  onChange={(next) => set("priceAmount", next)}
                  error={error("price")}
                  disabled={disabled}
                  inputWrapperOrder={UNDER}
                  data-testid="ad-price"
                />
                <NativeSelect
                  className={classes.currency}
                  label={t("adForm.currency")}
                  data={AD_CURRENCIES.map((currency) => ({ value: currency, label: t(`adForm.currency.${currency}`) }))}
                  value={value.currency}
                  onChange={(event) => set("currency", event.currentTarget.value as AdCurrency)}
                  disabled={disabled}
                  data-testid="ad-currency"
                />
              </div>
            </>
          )}
          {value.enabled && errors.format && (
            <Text size="sm" c="var(--mantine-color-error)" role="alert" data-testid="ad-format-error">{errorText(t, errors.format)}</Text>
          )}
        </Stack>
      </Collapse>
    </div>
  );
}

/** The feed minutes in words, with what happens at the term: the bot deletes it, or the owner does. */
function feedWords(t: ReturnType<typeof useT>, feed: number | null, locale: string): string {
  if (feed === null) return t("adForm.feedHint");
  if (feed === 0) return t("adForm.feedKept");
  const duration = durationText(feed, locale);
  return feed >= AD_BOT_DELETE_LIMIT_MINUTES ? t("adForm.feedByHand", { duration }) : t("adForm.feedDeleted", { duration });
}
