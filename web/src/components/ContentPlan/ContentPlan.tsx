import { Badge, Button, Card, EmptyState, Loader, Switch, Text, UnstyledButton, VisuallyHidden } from "@mantine/core";
import "@mantine/core/styles/Badge.layer.css";
import "@mantine/core/styles/Card.layer.css";
import "@mantine/core/styles/EmptyState.layer.css";
import "@mantine/core/styles/Switch.layer.css";
import "@mantine/core/styles/VisuallyHidden.layer.css";
import { useId, useRef, useState } from "react";
import type { ContentPlan as Slot } from "../../../../contract/content_plans.ts";
import { deleteContentPlan, updateContentPlan, useContentPlans } from "../../api/contentPlans.ts";
import { useFocusFallback } from "../../hooks/useFocusFallback.ts";
import { useLanguage, useT } from "../../i18n/i18n.tsx";
import { LOCALES } from "../../lib/formatDate.ts";
import { failureText } from "../../lib/messages.ts";
import { toastError, toastSuccess } from "../../lib/toast.ts";
import { ConfirmDialog } from "../ConfirmDialog/ConfirmDialog.tsx";
import { IconFileText, IconPlus, IconShield, IconSparkles } from "../Icons/Icons.tsx";
import { LoadError } from "../LoadError/LoadError.tsx";
import { useProjectRole } from "../../hooks/useProjectRole.ts";
import classes from "./ContentPlan.module.css";
import { dayNames, lengthText, WEEK_DAYS } from "./days.ts";
import { SlotDialog, type SlotTarget } from "./SlotDialog.tsx";
import { SuggestedTimes } from "./SuggestedTimes.tsx";

/** A slot in another timezone than the project's says where: "New York". */
function zoneName(timeZone: string) {
  return timeZone.split("/").at(-1)!.replaceAll("_", " ");
}

type ContentPlanProps = { projectId: number; projectTimeZone: string };

/**
 * Spec §3 Content plan on the Schedule page: the weekly slots the autopilot posts at (issue
 * 17), Monday first, as columns on a wide screen and rows on a narrow one (the section's own
 * width decides, through a container query). A slot shows its time, post length and an active
 * switch; it opens for changes, and a day's "+" adds one. New slots take the project's timezone.
 */
export function ContentPlan({ projectId, projectTimeZone }: ContentPlanProps) {
  const t = useT();
  const { language } = useLanguage();
  const locale = LOCALES[language];
  const namesOf = dayNames(locale);
  const titleId = useId();
  const { plans, isLoading, error, mutate } = useContentPlans(projectId);
  // an author or a viewer sees the plan; an owner or an editor changes it
  const edits = useProjectRole(projectId).can("plans.write");

  // What a closing dialog shows stays put while it animates out.
  const [target, setTarget] = useState<SlotTarget | null>(null);
  const lastTarget = useRef<SlotTarget | null>(null);
  if (target) lastTarget.current = target;
  const [toDelete, setToDelete] = useState<Slot | null>(null);
  const lastToDelete = useRef<Slot | null>(null);
  if (toDelete) lastToDelete.current = toDelete;
  const [deleting, setDeleting] = useState(false);
  const [suggesting, setSuggesting] = useState(false);
  const suggestionsId = useId();
  // The slot just removed took its button along: the focus goes to "Add slot" instead.
  const addButton = useRef<HTMLButtonElement>(null);
  useFocusFallback(toDelete !== null, () => addButton.current);

  const setActive = async (plan: Slot, active: boolean) => {
    try {
      await updateContentPlan(projectId, plan.id, { active });
    } catch (failure) {
      toastError(t("schedule.plan.saveFailed"), failureText(t, failure, "common.tryAgainLater"));
    }
  };

  const remove = async () => {
    if (!toDelete) return;
    setDeleting(true);
    try {
      await deleteContentPlan(projectId, toDelete.id);
      toastSuccess(t("schedule.plan.deleted"));
      setToDelete(null);
    } catch (failure) {
      toastError(t("schedule.plan.deleteFailed"), failureText(t, failure, "common.tryAgainLater"));
    } finally {
      setDeleting(false);
    }
  };

  if (error) {
    return <LoadError message={t("schedule.plan.loadFailed")} retryLabel={t("common.retry")} onRetry={() => void mutate()} />;
  }

  const activeCount = plans.filter((plan) => plan.active).length;
  const deleted = toDelete ?? lastToDelete.current;
  const deletedDay = deleted ? namesOf(deleted.dayOfWeek).long : "";

  return (
    <Card component="section" padding={0} className={classes.plan} aria-labelledby={titleId} data-testid="content-plan">
      <div className={classes.head}>
        <div className={classes.heading}>
          <div className={classes.titleRow}>
            <Text component="h2" id={titleId} className={classes.title}>
              {t("schedule.plan.title")}
            </Text>
            <Badge variant="light" size="sm" radius="sm" leftSection={<IconSparkles size={12} />} className={classes.badge}>
              {t("schedule.plan.badge")}
            </Badge>
          </div>
          <Text size="sm" c="dimmed" data-testid="content-plan-summary">
            {plans.length > 0
              ? t("schedule.plan.summary", { count: plans.length, active: activeCount })
              : t("schedule.plan.description")}
          </Text>
        </div>
        {edits && <div className={classes.headActions}>
          <Button
            variant="default"
            leftSection={<IconSparkles size={16} />}
            onClick={() => setSuggesting((open) => !open)}
            aria-expanded={suggesting}
            aria-controls={suggesting ? suggestionsId : undefined}
            data-testid="content-plan-suggest"
          >
            {t("schedule.plan.suggest.button")}
          </Button>
          {plans.length > 0 && (
            <Button
              ref={addButton}
              variant="light"
              leftSection={<IconPlus size={16} />}
              onClick={() => setTarget({ mode: "create", day: 1 })}
              className={classes.headAdd}
              data-testid="content-plan-add"
            >
              {t("schedule.plan.add")}
            </Button>
          )}
        </div>}
      </div>
      {suggesting && (
        <div id={suggestionsId}>
          <SuggestedTimes projectId={projectId} projectTimeZone={projectTimeZone} />
        </div>
      )}

      {isLoading ? (
        <div className={classes.loading} role="status">
          <Loader size="sm" role="img" aria-label={t("common.loading")} />
        </div>
      ) : plans.length === 0 ? (
        <EmptyState
          className={classes.empty}
          variant="light"
          icon={<IconSparkles size={26} />}
          title={t("schedule.plan.emptyTitle")}
          description={t("schedule.plan.emptyText")}
          data-testid="content-plan-empty"
        >
          <AutopilotRules />
          {edits && <EmptyState.Actions>
            <Button
              ref={addButton}
              leftSection={<IconPlus size={16} />}
              onClick={() => setTarget({ mode: "create", day: 1 })}
              data-testid="content-plan-add"
            >
              {t("schedule.plan.addFirst")}
            </Button>
          </EmptyState.Actions>}
        </EmptyState>
      ) : (
        <>
          <div className={classes.week}>
            {WEEK_DAYS.map((day) => {
              const names = namesOf(day);
              const daySlots = plans.filter((plan) => plan.dayOfWeek === day);
              return (
                <div key={day} className={classes.day} role="group" aria-label={names.long} data-testid="content-plan-day" data-day={day}>
                  <div className={classes.dayName} aria-hidden="true">
                    <span className={classes.dayShort}>{names.short}</span>
                    <span className={classes.dayLong}>{names.long}</span>
                  </div>
                  <div className={classes.slots}>
                    {daySlots.map((plan) => (
                      <SlotCard
                        key={plan.id}
                        plan={plan}
                        dayName={names.long}
                        locale={locale}
                        projectTimeZone={projectTimeZone}
                        onOpen={edits ? () => setTarget({ mode: "edit", plan }) : undefined}
                        onActiveChange={(active) => void setActive(plan, active)}
                      />
                    ))}
                    {edits && <UnstyledButton
                      className={classes.addSlot}
                      aria-label={t("schedule.plan.addOn", { day: names.long })}
                      title={t("schedule.plan.addOn", { day: names.long })}
                      onClick={() => setTarget({ mode: "create", day })}
                      data-testid="content-plan-add-slot"
                    >
                      <IconPlus size={14} />
                    </UnstyledButton>}
                  </div>
                </div>
              );
            })}
          </div>
          <div className={classes.footer}>
            <AutopilotRules compact />
          </div>
        </>
      )}

      <SlotDialog
        projectId={projectId}
        projectTimeZone={projectTimeZone}
        target={target ?? lastTarget.current}
        opened={target !== null}
        onClose={() => setTarget(null)}
        onDelete={(plan) => {
          setTarget(null);
          setToDelete(plan);
        }}
      />
      <ConfirmDialog
        opened={toDelete !== null}
        title={t("schedule.plan.delete.title")}
        message={deleted ? t("schedule.plan.delete.text", { day: deletedDay, time: deleted.time }) : ""}
        confirmLabel={t("common.delete")}
        busy={deleting}
        onConfirm={() => void remove()}
        onClose={() => setToDelete(null)}
      />
    </Card>
  );
}

type SlotCardProps = {
  plan: Slot;
  dayName: string;
  locale: string;
  projectTimeZone: string;
  /** Opens the slot for changes; none (and no switch) for a role that cannot change the plan. */
  onOpen?: () => void;
  onActiveChange: (active: boolean) => void;
};

/** One slot: its time and length open it for changes; the switch pauses or resumes it at once. */
function SlotCard({ plan, dayName, locale, projectTimeZone, onOpen, onActiveChange }: SlotCardProps) {
  const t = useT();
  const length = lengthText(t, plan.postLength, locale);
  const otherZone = plan.timezone !== projectTimeZone;
  return (
    <div
      className={classes.slot}
      data-active={plan.active || undefined}
      data-testid="content-plan-slot"
      data-plan-id={plan.id}
      data-time={plan.time}
    >
      <UnstyledButton
        component={onOpen ? "button" : "div"}
        className={classes.slotButton}
        onClick={onOpen}
        data-testid={onOpen ? "content-plan-slot-edit" : undefined}
      >
        <VisuallyHidden>{onOpen ? t("schedule.plan.editSlot", { day: dayName }) : dayName} </VisuallyHidden>
        <span className={classes.slotTime}>{plan.time}</span>{" "}
        <span className={classes.slotMeta}>
          <span className={classes.metaItem} data-testid="content-plan-slot-length">
            {length}
          </span>
          {otherZone && (
            <span className={classes.metaItem} title={plan.timezone}>
              {zoneName(plan.timezone)}
            </span>
          )}
          {!plan.active && <span className={`${classes.metaItem} ${classes.slotPaused}`}>{t("schedule.plan.paused")}</span>}
        </span>
      </UnstyledButton>
      {onOpen && <Switch
        size="sm"
        className={classes.slotSwitch}
        checked={plan.active}
        onChange={(event) => onActiveChange(event.currentTarget.checked)}
        aria-label={t("schedule.plan.activeLabel", { day: dayName, time: plan.time })}
        data-testid="content-plan-slot-active"
      />}
    </div>
  );
}

/** What the autopilot does with a slot (issue 17), in three short lines. */
function AutopilotRules({ compact = false }: { compact?: boolean }) {
  const t = useT();
  const rules = [
    { Icon: IconFileText, text: t("schedule.plan.ruleQueue") },
    { Icon: IconSparkles, text: t("schedule.plan.ruleAi") },
    { Icon: IconShield, text: t("schedule.plan.ruleApproval") },
  ];
  return (
    <ul className={classes.rules} data-compact={compact || undefined} data-testid="autopilot-rules">
      {rules.map(({ Icon, text }) => (
        <li key={text} className={classes.rule}>
          <span className={classes.ruleIcon}>
            <Icon size={compact ? 14 : 16} />
          </span>
          <span>{text}</span>
        </li>
      ))}
    </ul>
  );
}
