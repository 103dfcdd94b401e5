import { Text } from "@mantine/core";
import type { Ad, AdState } from "../../../../contract/ads.ts";
import { useLanguage, useT } from "../../i18n/i18n.tsx";
import { durationText } from "../../lib/adForm.ts";
import { adStanding } from "../../lib/adDisplay.ts";
import { formatMoney } from "../../lib/adReport.ts";
import { LOCALES } from "../../lib/formatDate.ts";
import { clockText, formatInstant, zonedAt } from "../../lib/projectTime.ts";
import { IconArrowUp, IconMegaphone, IconTrash } from "../Icons/Icons.tsx";
import { adFormatText } from "../AdFields/AdFields.tsx";
import classes from "./PostDetailsDialog.module.css";

type AdFactsProps = { ad: Ad; adState: AdState | null; timeZone: string };

/**
 * An ad's facts in the post's details (issue 37): who bought it and its erid, the format and
 * price, its top window, and where it stands at its term (removed, to be removed, or waiting
 * for the owner to remove it by hand). Rows of PostFacts' list.
 */
export function AdFacts({ ad, adState, timeZone }: AdFactsProps) {
  const t = useT();
  const { language } = useLanguage();
  const locale = LOCALES[language];
  const at = (iso: string) => formatInstant(iso, locale, timeZone);
  const formatWords = [
    t("schedule.details.adTopFor", { duration: durationText(ad.topMinutes, locale) }),
    ad.feedMinutes === 0 ? t("adForm.formatKeep") : t("schedule.details.adFeedFor", { duration: durationText(ad.feedMinutes, locale) }),
  ].join(", ");
  const standing = adState ? adStanding(ad, adState) : null;
  // a window within one day ends at a time of that day: "from 30 Nov, 12:00 until 14:00"
  const until = (from: string, to: string) => {
    const [start, end] = [zonedAt(from, timeZone), zonedAt(to, timeZone)];
    return start.toString().slice(0, 10) === end.toString().slice(0, 10) ? clockText(end) : at(to);
  };

  return (
    <>
      <dt>
        <IconMegaphone size={16} />
        <span className={classes.factLabel}>{t("schedule.details.ad")}</span>
      </dt>
      <dd data-testid="post-details-ad">
        <span className={classes.optionLine} data-testid="post-details-advertiser">
          {ad.advertiser}
          {ad.advertiserInn && ` · ${t("schedule.details.adInn", { inn: ad.advertiserInn })}`}
        </span>
        <span className={classes.optionLine} data-testid="post-details-erid">
          erid: {ad.erid}
        </span>
        <span className={classes.optionLine} data-testid="post-details-ad-format">
          {adFormatText(t, ad)}
          <Text span size="xs" c="dimmed">
            {" "}
            ({formatWords})
          </Text>
        </span>
        {ad.price && (
          <span className={classes.optionLine} data-testid="post-details-ad-price">
            {t("schedule.details.adPrice", { price: formatMoney(ad.price.amount, ad.price.currency, locale) })}
          </span>
        )}
      </dd>

      {adState && ad.topMinutes > 0 && (
        <>
          <dt>
            <IconArrowUp size={16} />
            <span className={classes.factLabel}>{t("schedule.details.adTop")}</span>
          </dt>
          <dd data-testid="post-details-ad-top">
            {t("schedule.details.adTopWindow", { from: at(adState.topFrom), until: until(adState.topFrom, adState.topUntil) })}
          </dd>
        </>
      )}

      {standing && (
        <>
          <dt>
            <IconTrash size={16} />
            <span className={classes.factLabel}>{t("schedule.details.adRemoval")}</span>
          </dt>
          <dd data-testid="post-details-ad-removal" data-standing={standing.kind}>
            {standing.kind === "removed" && t("schedule.details.adRemoved", { time: at(standing.at) })}
            {standing.kind === "willBeRemoved" && t("schedule.details.adWillBeRemoved", { time: at(standing.at) })}
            {standing.kind === "byHand" && t("schedule.details.adByHand", { time: at(standing.at) })}
            {standing.kind === "dueByHand" && (
              <Text span size="sm" c="orange.8" fw={500}>
                {t("schedule.details.adDueByHand")}
              </Text>
            )}
            {standing.kind === "kept" && t("schedule.details.adKept")}
          </dd>
        </>
      )}
    </>
  );
}
