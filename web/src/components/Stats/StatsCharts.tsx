/*
 * The two charts of the Statistics page. This module, @mantine/charts and recharts are their
 * own chunk (lazyCharts.tsx loads it with React.lazy), so the first paint of the app stays
 * within its JavaScript budget. Colours are Mantine's variables, so both themes apply.
 * The charts are pictures for sighted readers (hidden from screen readers, no tab stop); each
 * has its figures as text and a table beside it.
 */
import { AreaChart, BarChart } from "@mantine/charts";
import "@mantine/charts/styles.css";
// the legend's colour marks are Mantine's ColorSwatch, whose styles the app does not load elsewhere
import "@mantine/core/styles/ColorSwatch.layer.css";

type SubscribersChartProps = { height: number; data: { label: string; count: number }[]; seriesLabel: string; numberFormat: Intl.NumberFormat };

export function SubscribersChart({ height, data, seriesLabel, numberFormat }: SubscribersChartProps) {
  return (
    <AreaChart
      h={height}
      data={data}
      dataKey="label"
      series={[{ name: "count", label: seriesLabel, color: "brand.6" }]}
      curveType="monotone"
      withDots={data.length <= 31}
      withGradient
      gridAxis="y"
      accessibilityLayer={false}
      tooltipAnimationDuration={0}
      valueFormatter={(value) => numberFormat.format(value)}
      yAxisProps={{ domain: ["auto", "auto"], allowDecimals: false, width: 56 }}
      xAxisProps={{ minTickGap: 24 }}
      data-testid="subscribers-chart"
    />
  );
}

type JoinsChartProps = {
  height: number;
  data: { label: string; joins: number; leaves: number }[];
  joinsLabel: string;
  leavesLabel: string;
};

export function JoinsChart({ height, data, joinsLabel, leavesLabel }: JoinsChartProps) {
  return (
    <BarChart
      h={height}
      data={data}
      dataKey="label"
      series={[
        { name: "joins", label: joinsLabel, color: "teal.6" },
        { name: "leaves", label: leavesLabel, color: "red.6" },
      ]}
      withLegend
      legendProps={{ verticalAlign: "bottom", height: 36 }}
      gridAxis="y"
      accessibilityLayer={false}
      tooltipAnimationDuration={0}
      yAxisProps={{ allowDecimals: false, width: 40 }}
      xAxisProps={{ minTickGap: 16 }}
      data-testid="joins-chart"
    />
  );
}
