import { Anchor, Text } from "@mantine/core";
import type { ComponentType, ReactNode } from "react";
import { Link } from "react-router-dom";
import classes from "./Banner.module.css";

type BannerAction = { label: string; testId?: string } & ({ to: string } | { onClick: () => void });

type BannerProps = {
  /** info: the brand's tint (a step to take); warning: orange (something stopped). */
  tone: "info" | "warning";
  icon: ComponentType<{ size?: number; className?: string }>;
  title: ReactNode;
  /** The sentence under the title, as the caller words and colours it. */
  children: ReactNode;
  /** A link to another screen (`to`) or a button on this one (`onClick`). */
  action: BannerAction;
  testId?: string;
};

/** A status banner above a screen's content (the schedule's "no channel" and "series stopped"). */
export function Banner({ tone, icon: Icon, title, children, action, testId }: BannerProps) {
  const anchor = { size: "sm", fw: 500, className: classes.action, "data-testid": action.testId } as const;
  return (
    <div className={classes.banner} data-tone={tone} role="status" data-testid={testId}>
      <Icon size={18} className={classes.icon} />
      <div className={classes.body}>
        <Text size="sm" fw={600}>
          {title}
        </Text>
        {children}
      </div>
      {"to" in action
        ? <Anchor component={Link} to={action.to} {...anchor}>{action.label}</Anchor>
        : <Anchor component="button" type="button" onClick={action.onClick} {...anchor}>{action.label}</Anchor>}
    </div>
  );
}
