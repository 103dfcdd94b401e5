import { Badge, Button, Card, Text, ThemeIcon } from "@mantine/core";
import { Link } from "react-router-dom";
import { useT } from "../../i18n/i18n.tsx";
import { type FirstStep, nextStep } from "../../lib/firstSteps.ts";
import { projectPath } from "../../lib/projectSections.ts";
import { IconCheck } from "../Icons/Icons.tsx";
import classes from "./FirstSteps.module.css";

/**
 * A new project's three steps to its first post (connect, drafts, plan), each ticked off by
 * what the project has, the next one with its button. Not shown once all three are done.
 */
export function FirstSteps({ projectId, steps }: { projectId: number; steps: FirstStep[] }) {
  const t = useT();
  const next = nextStep(steps);
  if (!next) return null;
  const done = steps.filter((step) => step.done).length;
  return (
    <Card component="section" padding="lg" className={classes.root} aria-labelledby="first-steps-title" data-testid="first-steps">
      <div className={classes.head}>
        <Text component="h2" fw={600} m={0} id="first-steps-title">
          {t("firstSteps.title")}
        </Text>
        <Badge variant="light" radius="sm" tt="none">
          {t("firstSteps.progress", { done, total: steps.length })}
        </Badge>
      </div>
      <ol className={classes.steps}>
        {steps.map((step, index) => (
          <li key={step.key} className={classes.step} data-done={step.done || undefined} data-testid={`first-step-${step.key}`}>
            <ThemeIcon size={28} radius="xl" variant={step.done ? "filled" : "light"} color={step.done ? "teal" : undefined} aria-hidden="true">
              {step.done ? <IconCheck size={16} /> : <Text fw={700} size="sm">{index + 1}</Text>}
            </ThemeIcon>
            <div className={classes.words}>
              <Text fw={600}>
                {t(`firstSteps.${step.key}`)}
                {step.done && <span className={classes.doneMark}> · {t("firstSteps.done")}</span>}
              </Text>
              <Text size="sm" c="dimmed">
                {t(`firstSteps.${step.key}Text`)}
              </Text>
            </div>
            {step === next && (
              <Button component={Link} to={projectPath(projectId, step.path)} size="xs" className={classes.go}>
                {t(`firstSteps.${step.key}Go`)}
              </Button>
            )}
          </li>
        ))}
      </ol>
    </Card>
  );
}
