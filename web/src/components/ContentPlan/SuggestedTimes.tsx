import { Badge, Button, Loader, Text } from "@mantine/core";
import "@mantine/core/styles/Badge.layer.css";
import { useId, useState } from "react";
import type { SuggestedTime } from "../../../../contract/content_plans.ts";
import { GENERATED_POST_LENGTH } from "../../../../contract/limits.ts";
import { createContentPlan, useSuggestedTimes } from "../../api/contentPlans.ts";
import { useLanguage, useT } from "../../i18n/i18n.tsx";
import { LOCALES } from "../../lib/formatDate.ts";
import { failureText } from "../../lib/messages.ts";
import { toastError, toastSuccess } from "../../lib/toast.ts";
import { IconCheck, IconPlus } from "../Icons/Icons.tsx";
import { LoadError } from "../LoadError/LoadError.tsx";
import classes from "./ContentPlan.module.css";
import { dayNames } from "./days.ts";

type SuggestedTimesProps = { projectId: number; projectTimeZone: string };

/** "18:00": a suggestion is an hour of the day. */
const hourText = (hour: number) => `${String(hour).padStart(2, "0")}:00`;

/**
 * The content plan's "Suggest times" (issue 27): the hours of the week whose posts got the most
 * reactions, each added to the plan in one click as a slot of the project's timezone at the
 * start of that hour; or, while the grid holds too little, how many more posts with reactions
 * it needs.
 */
export function SuggestedTimes({ projectId, projectTimeZone }: SuggestedTimesProps) {
  const t = useT();
  const { language } = useLanguage();
  const locale = LOCALES[language];
  const namesOf = dayNames(locale);
  const titleId = useId();
  const { suggested, isLoading, error, mutate } = useSuggestedTimes(projectId);
  const [adding, setAdding] = useState<string | null>(null);

  const add = async (time: SuggestedTime) => {
    setAdding(`${time.weekday}:${time.hour}`);
    try {
      await createContentPlan(projectId, {
        dayOfWeek: time.weekday % 7,
        time: hourText(time.hour),
        timezone: projectTimeZone,
        postLength: GENERATED_POST_LENGTH.default,
        active: true,
      });
      toastSuccess(t("schedule.plan.added"));
    } catch (failure) {
      toastError(t("schedule.plan.saveFailed"), failureText(t, failure, "common.tryAgainLater"));
    } finally {
      setAdding(null);
    }
  };

  let body;
  if (error) {
    body = <LoadError message={t("schedule.plan.suggest.loadFailed")} retryLabel={t("common.retry")} onRetry={() => void mutate()} />;
  } else if (isLoading || !suggested) {
    body = <Loader size="sm" role="img" aria-label={t("common.loading")} />;
  } else if (!suggested.ready) {
    body = (
      <Text size="sm" data-testid="suggested-times-wait">
        {t("schedule.plan.suggest.wait", { posts: suggested.postsNeeded })}
        {suggested.timesNeeded > 0 && ` ${t("schedule.plan.suggest.waitTimes", { times: suggested.timesNeeded })}`}
      </Text>
    );
  } else {
    const average = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
    body = (
      <>
        <Text size="sm" c="dimmed">
          {t("schedule.plan.suggest.intro", { timezone: projectTimeZone })}
        </Text>
        <ol className={classes.suggestionList}>
          {suggested.times.map((time) => {
            const day = namesOf(time.weekday % 7).long;
            const at = hourText(time.hour);
            return (
              <li key={`${time.weekday}:${time.hour}`} className={classes.suggestion} data-testid="suggested-time" data-weekday={time.weekday} data-hour={time.hour}>
                <span className={classes.suggestionWhen}>
                  {day}, {at}
                </span>
                <span className={classes.suggestionStats}>
                  {t("schedule.plan.suggest.stats", { avg: average.format(time.avgReactions), posts: time.posts })}
                </span>
                {time.inPlan ? (
                  <Badge variant="light" color="gray" radius="sm" leftSection={<IconCheck size={12} />} className={classes.badge} data-testid="suggested-time-in-plan">
                    {t("schedule.plan.suggest.inPlan")}
                  </Badge>
                ) : (
                  <Button
                    size="compact-sm"
                    variant="light"
                    leftSection={<IconPlus size={14} />}
                    loading={adding === `${time.weekday}:${time.hour}`}
                    disabled={adding !== null}
                    onClick={() => void add(time)}
                    aria-label={t("schedule.plan.suggest.addLabel", { day, time: at })}
                    data-testid="suggested-time-add"
                  >
                    {t("schedule.plan.suggest.add")}
                  </Button>
                )}
              </li>
            );
          })}
        </ol>
      </>
    );
  }

  return (
    <section className={classes.suggestions} aria-labelledby={titleId} aria-busy={isLoading || undefined} data-testid="suggested-times">
      <Text component="h3" id={titleId} className={classes.suggestionsTitle}>
        {t("schedule.plan.suggest.title")}
      </Text>
      {body}
    </section>
  );
}
