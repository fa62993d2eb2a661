// Chart options for the agreement, calibration and quality pages, as pure
// functions of the numbers the server sends (no figure is computed here).
import type { ChartOption } from "./echarts";
import { fixed, percent } from "./format";

/** Colours of the design tokens (theme.css), read once from the page, with the same values as fallback. */
export function tokens() {
  const css = typeof document === "undefined" ? null : getComputedStyle(document.documentElement);
  const t = (name: string, fallback: string) => css?.getPropertyValue(name).trim() || fallback;
  return {
    primary: t("--c-primary", "#3b5bdb"),
    success: t("--c-success", "#2b8a3e"),
    danger: t("--c-danger", "#c92a2a"),
    warn: t("--c-warn", "#a65f00"),
    text: t("--c-text", "#1b1f24"),
    muted: t("--c-text-muted", "#5f6b7a"),
    border: t("--c-border", "#dfe3e8"),
    soft: t("--c-primary-soft", "#e8edff"),
  };
}

/** A categorical palette for series (annotators, questions). */
export const SERIES = ["#3b5bdb", "#e8590c", "#2b8a3e", "#ae3ec9", "#1098ad", "#f08c00", "#c2255c", "#5c940d", "#495057", "#7048e8"];

export const text = (c: ReturnType<typeof tokens>) => ({ color: c.text, fontFamily: "inherit" });

/** Room for the longest category label (about 7 px a character, at most 180 px). */
const labelRoom = (labels: string[]) => Math.min(180, 16 + 7 * Math.max(0, ...labels.map((l) => l.length)));

/** A category axis' labels cut to the room they have, with the whole label in the tooltip. */
const fitLabels = (room: number) => ({ width: room - 12, overflow: "truncate", interval: 0 });

/** A plot area this far from the chart's edges, with its axis labels and names kept inside. */
const box = (left: number, right: number, top: number, bottom: number) => ({
  left,
  right,
  top,
  bottom,
  outerBoundsMode: "same",
  outerBoundsContain: "all",
});

export interface IntervalRow {
  label: string;
  value: number | null;
  lo: number | null;
  hi: number | null;
}

/**
 * A point with its 95 % interval per row (e.g. α per question), rows top to
 * bottom in the given order, on an axis from min(0, lowest bound) to 1.
 */
export function intervalOption(rows: IntervalRow[], name = "α"): ChartOption {
  const c = tokens();
  const labels = rows.map((r) => r.label).reverse();
  const data = [...rows].reverse();
  const low = Math.min(0, ...data.flatMap((r) => [r.lo, r.value]).filter((v): v is number => v !== null));
  // note: ticks every 0.2 (every 0.5 below −0.6) from a multiple of the step, so labels never crowd.
  const step = low < -0.6 ? 0.5 : 0.2;
  return {
    textStyle: text(c),
    animation: false,
    grid: { ...box(labelRoom(labels), 24, 16, 28), outerBoundsMode: "none" },
    tooltip: { trigger: "item" },
    xAxis: { type: "value", min: Math.floor(low / step) * step, max: 1, interval: step, name, nameLocation: "end", splitLine: { lineStyle: { color: c.border } } },
    yAxis: { type: "category", data: labels, axisTick: { show: false }, axisLabel: fitLabels(labelRoom(labels)) },
    series: [
      {
        type: "custom",
        name: "95 % interval",
        data: data.map((r, i) => [i, r.lo, r.hi]),
        renderItem: (_params: unknown, api: IntervalApi) => {
          const lo = api.value(1);
          const hi = api.value(2);
          if (lo == null || hi == null || Number.isNaN(lo) || Number.isNaN(hi)) return null;
          const a = api.coord([lo, api.value(0)]);
          const b = api.coord([hi, api.value(0)]);
          const cap = Math.max(4, api.size([0, 1])[1] * 0.15);
          const style = { stroke: c.primary, lineWidth: 2 };
          return {
            type: "group",
            children: [
              { type: "line", shape: { x1: a[0], y1: a[1], x2: b[0], y2: b[1] }, style },
              { type: "line", shape: { x1: a[0], y1: a[1] - cap, x2: a[0], y2: a[1] + cap }, style },
              { type: "line", shape: { x1: b[0], y1: b[1] - cap, x2: b[0], y2: b[1] + cap }, style },
            ],
          };
        },
        encode: { x: [1, 2], y: 0 },
        tooltip: { formatter: (p: { value: [number, number | null, number | null] }) => `95 % interval ${fixed(p.value[1])} – ${fixed(p.value[2])}` },
        z: 1,
      },
      {
        type: "scatter",
        name,
        data: data.map((r) => [r.value, r.label]),
        symbolSize: 10,
        itemStyle: { color: c.primary, borderColor: "#fff", borderWidth: 1 },
        label: { show: true, position: "top", formatter: (p: { value: [number | null] }) => fixed(p.value[0]), color: c.text },
        tooltip: { formatter: (p: { value: [number, string] }) => `${p.value[1]}: ${name} ${fixed(p.value[0])}` },
        z: 2,
      },
    ],
  };
}

/** What the custom series' renderItem uses of ECharts' API. */
interface IntervalApi {
  value: (dim: number) => number;
  coord: (v: [number, number]) => [number, number];
  size: (v: [number, number]) => [number, number];
}

export interface HeatPerson {
  name: string;
}

/** An annotator × annotator matrix of pairwise agreement (0..1), empty where two people share no item. */
export function heatmapOption(people: HeatPerson[], values: (number | null)[][]): ChartOption {
  const c = tokens();
  const names = people.map((p) => p.name);
  const cells: [number, number, number][] = [];
  values.forEach((row, i) => row.forEach((v, j) => v !== null && cells.push([j, i, v])));
  return {
    textStyle: text(c),
    animation: false,
    grid: { ...box(labelRoom(names), 16, 8, 56), outerBoundsMode: "none" },
    tooltip: {
      formatter: (p: { value: [number, number, number] }) => `${names[p.value[1]]} × ${names[p.value[0]]}: ${percent(p.value[2])}`,
    },
    xAxis: { type: "category", data: names, axisLabel: { rotate: names.length > 4 ? 30 : 0, interval: 0 }, splitArea: { show: true } },
    yAxis: { type: "category", data: names, inverse: true, axisLabel: fitLabels(labelRoom(names)), splitArea: { show: true } },
    visualMap: {
      min: 0,
      max: 1,
      calculable: false,
      orient: "horizontal",
      left: "center",
      bottom: 0,
      itemHeight: 120,
      text: ["100 %", "0 %"],
      inRange: { color: ["#fff5f5", "#ffe8cc", "#d3f9d8", "#2b8a3e"] },
    },
    series: [
      {
        type: "heatmap",
        name: "Pairwise agreement",
        data: cells,
        label: { show: names.length <= 12, formatter: (p: { value: [number, number, number] }) => percent(p.value[2], 0), color: c.text },
        itemStyle: { borderColor: "#fff", borderWidth: 1 },
      },
    ],
  };
}

export interface ScoreRow {
  label: string;
  value: number | null;
  passed: boolean;
}

/** One bar per annotator, green when they passed, red when not, with the pass threshold as a line. */
export function thresholdBarsOption(rows: ScoreRow[], threshold: number, name: string, max = 1): ChartOption {
  const c = tokens();
  // note: α can be below 0; the axis then reaches down to the lowest bar.
  const low = Math.min(0, ...rows.map((r) => r.value ?? 0));
  return {
    textStyle: text(c),
    animation: false,
    grid: box(8, 24, 24, 8),
    tooltip: { trigger: "axis", axisPointer: { type: "shadow" } },
    xAxis: { type: "category", data: rows.map((r) => r.label), axisLabel: { interval: 0, rotate: rows.length > 6 ? 30 : 0 } },
    yAxis: { type: "value", min: Math.floor(low * 10) / 10, max, splitLine: { lineStyle: { color: c.border } } },
    series: [
      {
        type: "bar",
        name,
        barMaxWidth: 48,
        data: rows.map((r) => ({ value: r.value, itemStyle: { color: r.passed ? c.success : c.danger } })),
        label: { show: true, position: "top", formatter: (p: { value: number | null }) => fixed(p.value), color: c.text },
        markLine: {
          symbol: "none",
          silent: true,
          lineStyle: { color: c.text, type: "dashed", width: 1.5 },
          label: { formatter: `pass ${fixed(threshold)}`, position: "insideEndTop", color: c.text },
          data: [{ yAxis: threshold }],
        },
      },
    ],
  };
}

export interface TrendSeries {
  name: string;
  data: (number | null)[];
  /** 0: the left axis (shares and α), 1: the right axis (mean absolute difference). */
  axis: 0 | 1;
}

/** Round-over-round lines, one per figure; shares on the left axis, MAD on the right. */
export function trendOption(rounds: number[], series: TrendSeries[]): ChartOption {
  const c = tokens();
  const right = series.some((s) => s.axis === 1);
  return {
    textStyle: text(c),
    animation: false,
    color: SERIES,
    grid: box(8, 8, 40, 8),
    legend: { top: 0, itemGap: 18, textStyle: text(c) },
    tooltip: { trigger: "axis" },
    xAxis: { type: "category", data: rounds.map((n) => `Round ${n}`), boundaryGap: false },
    yAxis: [
      { type: "value", min: 0, max: 1, name: "share / α", splitLine: { lineStyle: { color: c.border } } },
      ...(right ? [{ type: "value", min: 0, name: "MAD", splitLine: { show: false } }] : []),
    ],
    series: series.map((s) => ({
      type: "line",
      name: s.name,
      data: s.data,
      yAxisIndex: right ? s.axis : 0,
      connectNulls: false,
      symbolSize: 7,
      label: { show: true, formatter: (p: { value: number | null }) => fixed(p.value), fontSize: 11 },
      lineStyle: s.axis === 1 ? { type: "dashed" } : undefined,
    })),
  };
}

export interface BarGroup {
  name: string;
  data: (number | null)[];
}

/** Grouped bars of shares (0..1): one group per category, one bar per series (e.g. Yes-rate per question and annotator). */
export function groupedBarsOption(categories: string[], groups: BarGroup[], name: string, guide?: number): ChartOption {
  const c = tokens();
  return {
    textStyle: text(c),
    animation: false,
    color: SERIES,
    grid: box(8, 24, 40, 8),
    legend: { top: 0, type: "scroll", textStyle: text(c) },
    tooltip: { trigger: "axis", axisPointer: { type: "shadow" }, valueFormatter: (v: number | null) => percent(v) },
    xAxis: { type: "category", data: categories, axisLabel: { interval: 0, rotate: categories.length > 5 ? 30 : 0 } },
    yAxis: { type: "value", min: 0, max: 1, name, axisLabel: { formatter: (v: number) => percent(v, 0) }, splitLine: { lineStyle: { color: c.border } } },
    series: groups.map((g, i) => ({
      type: "bar",
      name: g.name,
      data: g.data,
      barMaxWidth: 28,
      ...(i === 0 && guide !== undefined
        ? {
            markLine: {
              symbol: "none",
              silent: true,
              lineStyle: { color: c.muted, type: "dashed" },
              label: { formatter: percent(guide, 0), position: "insideEndTop" },
              data: [{ yAxis: guide }],
            },
          }
        : {}),
    })),
  };
}
