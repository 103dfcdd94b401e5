/*
 * Prometheus' text exposition format (version 0.0.4), written here rather than taken from
 * prom-client: that library is built around a registry of live metric objects in one
 * process, while most of our series are read from PostgreSQL at scrape time (every API
 * instance must answer the same numbers), and printing the format takes a page.
 * Format: https://prometheus.io/docs/instrumenting/exposition_formats/
 */

export const EXPOSITION_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

export type Labels = Record<string, string>;
export type Sample = { labels?: Labels; value: number };
/** One histogram series: `buckets[i]` is the cumulative count of observations ≤ `bounds[i]`. */
export type HistogramSeries = { labels?: Labels; bounds: number[]; buckets: number[]; sum: number; count: number };

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** A sample value as the format spells it (Go's ParseFloat reads these). */
export function formatValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return String(value);
}

const escapeLabelValue = (value: string) => value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
const escapeHelp = (text: string) => text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");

function labelText(labels: Labels | undefined, extra?: [string, string]): string {
  const pairs = Object.entries(labels ?? {});
  if (extra) pairs.push(extra);
  if (pairs.length === 0) return "";
  for (const [name] of pairs) {
    if (!LABEL_NAME.test(name) || name.startsWith("__")) throw new Error(`invalid label name ${name}`);
  }
  return `{${pairs.map(([name, value]) => `${name}="${escapeLabelValue(value)}"`).join(",")}}`;
}

/** Collects metric families and prints them; each family's name is declared once. */
export class Exposition {
  #lines: string[] = [];
  #names = new Set<string>();

  #family(name: string, type: "counter" | "gauge" | "histogram", help: string) {
    if (!METRIC_NAME.test(name)) throw new Error(`invalid metric name ${name}`);
    if (this.#names.has(name)) throw new Error(`metric ${name} declared twice`);
    this.#names.add(name);
    this.#lines.push(`# HELP ${name} ${escapeHelp(help)}`, `# TYPE ${name} ${type}`);
  }

  /** A counter's name ends in `_total`, as the format's conventions ask. */
  counter(name: string, help: string, samples: Sample[]) {
    if (!name.endsWith("_total")) throw new Error(`counter ${name} should end in _total`);
    this.#family(name, "counter", help);
    for (const s of samples) this.#lines.push(`${name}${labelText(s.labels)} ${formatValue(s.value)}`);
    return this;
  }

  gauge(name: string, help: string, samples: Sample[]) {
    this.#family(name, "gauge", help);
    for (const s of samples) this.#lines.push(`${name}${labelText(s.labels)} ${formatValue(s.value)}`);
    return this;
  }

  histogram(name: string, help: string, series: HistogramSeries[]) {
    this.#family(name, "histogram", help);
    for (const s of series) {
      if (s.bounds.length !== s.buckets.length) throw new Error(`histogram ${name}: ${s.bounds.length} bounds, ${s.buckets.length} buckets`);
      s.bounds.forEach((bound, i) => {
        if (i > 0 && !(bound > s.bounds[i - 1])) throw new Error(`histogram ${name}: bounds must ascend`);
        this.#lines.push(`${name}_bucket${labelText(s.labels, ["le", formatValue(bound)])} ${formatValue(s.buckets[i])}`);
      });
      this.#lines.push(`${name}_bucket${labelText(s.labels, ["le", "+Inf"])} ${formatValue(s.count)}`);
      this.#lines.push(`${name}_sum${labelText(s.labels)} ${formatValue(s.sum)}`);
      this.#lines.push(`${name}_count${labelText(s.labels)} ${formatValue(s.count)}`);
    }
    return this;
  }

  text(): string {
    return this.#lines.join("\n") + "\n";
  }
}

/**
 * A histogram kept in this process's memory, one series per label set (for what only one
 * process can see, such as its own HTTP requests). Label sets must come from a bounded set.
 */
export class LocalHistogram {
  readonly #series = new Map<string, HistogramSeries>();
  constructor(readonly bounds: number[]) {}

  observe(labels: Labels, value: number) {
    const key = JSON.stringify(labels);
    let series = this.#series.get(key);
    if (!series) {
      series = { labels, bounds: this.bounds, buckets: this.bounds.map(() => 0), sum: 0, count: 0 };
      this.#series.set(key, series);
    }
    for (let i = 0; i < this.bounds.length; i++) if (value <= this.bounds[i]) series.buckets[i]++;
    series.sum += value;
    series.count++;
  }

  series(): HistogramSeries[] {
    return [...this.#series.values()].map((s) => ({ ...s, buckets: [...s.buckets] }));
  }
}
