import { Skeleton } from "@mantine/core";
import "@mantine/core/styles/Skeleton.layer.css";
import { lazy, Suspense, type ComponentProps, type ReactNode } from "react";

// One chunk for both charts and their library: loaded when the first chart shows.
const loadCharts = () => import("./StatsCharts.tsx");
const LazySubscribersChart = lazy(() => loadCharts().then((m) => ({ default: m.SubscribersChart })));
const LazyJoinsChart = lazy(() => loadCharts().then((m) => ({ default: m.JoinsChart })));

const CHART_HEIGHT = 220;

/** A chart is a picture beside its figures in text: screen readers skip it, a table says the same. */
function ChartFrame({ children }: { children: ReactNode }) {
  return (
    <div aria-hidden="true" style={{ minHeight: CHART_HEIGHT }}>
      <Suspense fallback={<Skeleton height={CHART_HEIGHT} />}>{children}</Suspense>
    </div>
  );
}

export function SubscribersChart(props: Omit<ComponentProps<typeof LazySubscribersChart>, "height">) {
  return (
    <ChartFrame>
      <LazySubscribersChart height={CHART_HEIGHT} {...props} />
    </ChartFrame>
  );
}

export function JoinsChart(props: Omit<ComponentProps<typeof LazyJoinsChart>, "height">) {
  return (
    <ChartFrame>
      <LazyJoinsChart height={CHART_HEIGHT} {...props} />
    </ChartFrame>
  );
}
