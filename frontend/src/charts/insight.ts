// Chart options for the balance, report and judges pages, as pure functions
// of the numbers the server sends (no figure is computed here beyond placing
// it on an axis).
import type { ChartOption } from "./echarts";
import { fixed, percent } from "./format";
import { intervalOption, SERIES, tokens, type IntervalRow } from "./options";

/**
 * The text style of these charts. note: the page's own font stack, not
 * "inherit": ECharts measures labels on a canvas, where "inherit" falls back to
 * a narrower font, so long axis labels were laid out too short and clipped.
 */
function text(c: ReturnType<typeof tokens>) {
  const css = typeof document === "undefined" ? null : getComputedStyle(document.documentElement);
  const family = css?.getPropertyValue("--font-sans").trim() || "system-ui, sans-serif";
  return { color: c.text, fontFamily: family };
}

export interface CountSeries {
  name: string;
  data: (number | null)[];
  color?: string;
  /** Series with the same stack are drawn on top of each other. */
  stack?: string;
}

export interface CountBarsOptions {
  /** Bars run left to right with categories down the side (long labels, many values). */
  horizontal?: boolean;
  /** The value axis' name. */
  name?: string;
}

/** Bars of counts per category, one series or several (grouped, or stacked by `stack`). */
export function countBarsOption(categories: string[], series: CountSeries[], o: CountBarsOptions = {}): ChartOption {
  const c = tokens();
  const legend = series.length > 1;
  const cat = {
    type: "category",
    data: o.horizontal ? [...categories].reverse() : categories,
    axisTick: { show: false },
    axisLabel: o.horizontal ? { width: 160, overflow: "truncate" } : { interval: 0, rotate: categories.length > 6 ? 30 : 0, width: 120, overflow: "truncate" },
  };
  const val = { type: "value", name: o.name, minInterval: 1, splitLine: { lineStyle: { color: c.border } } };
  const single = series.length === 1 && !series[0].stack;
  return {
    textStyle: text(c),
    animation: false,
    color: SERIES,
    grid: { left: 8, right: o.horizontal ? 48 : 32, top: legend ? 36 : 24, bottom: 8, containLabel: true },
    legend: legend ? { top: 0, textStyle: text(c) } : undefined,
    tooltip: { trigger: "axis", axisPointer: { type: "shadow" } },
    xAxis: o.horizontal ? val : cat,
    yAxis: o.horizontal ? cat : val,
    series: series.map((s) => ({
      type: "bar",
      name: s.name,
      data: o.horizontal ? [...s.data].reverse() : s.data,
      stack: s.stack,
      barMaxWidth: 40,
      itemStyle: s.color ? { color: s.color } : undefined,
      label: single ? { show: true, position: o.horizontal ? "right" : "top", color: c.text } : undefined,
    })),
  };
}

export interface RatioRow {
  label: string;
  ratio: number | null;
  /** Whether the ratio exceeds the target; undefined without a target. */
  met?: boolean;
}

/** The No/Yes ratio per binary question, green above the target ρ and red under it, with ρ as a line. */
export function ratioBarsOption(rows: RatioRow[], target: number | null): ChartOption {
  const c = tokens();
  const top = Math.max(target ?? 0, ...rows.map((r) => r.ratio ?? 0), 0.1);
  const colour = (r: RatioRow) => (r.met === undefined ? c.primary : r.met ? c.success : c.danger);
  return {
    textStyle: text(c),
    animation: false,
    grid: { left: 8, right: 32, top: 28, bottom: 8, containLabel: true },
    tooltip: { trigger: "axis", axisPointer: { type: "shadow" }, valueFormatter: (v: number | null) => fixed(v) },
    xAxis: { type: "category", data: rows.map((r) => r.label), axisLabel: { interval: 0, rotate: rows.length > 6 ? 30 : 0, width: 120, overflow: "truncate" } },
    yAxis: { type: "value", min: 0, max: top * 1.1 <= 1 ? Math.ceil(top * 11) / 10 : Math.ceil(top * 1.1), name: "No / Yes", splitLine: { lineStyle: { color: c.border } } },
    series: [
      {
        type: "bar",
        name: "No / Yes",
        barMaxWidth: 40,
        data: rows.map((r) => ({ value: r.ratio, itemStyle: { color: colour(r) } })),
        label: { show: rows.length <= 16, position: "top", formatter: (p: { value: number | null }) => fixed(p.value), color: c.text },
        ...(target !== null
          ? {
              markLine: {
                symbol: "none",
                silent: true,
                lineStyle: { color: c.text, type: "dashed", width: 1.5 },
                label: { formatter: `ρ ${fixed(target)}`, position: "insideEndTop", color: c.text },
                data: [{ yAxis: target }],
              },
            }
          : {}),
      },
    ],
  };
}

export interface HistogramBin {
  score: number;
  count: number;
  needs?: number;
}

/**
 * The total-score histogram: the items in each bin, with the items a bin
 * still needs stacked on top and, with a spread target δ, the level every bin
 * must reach (the largest bin minus δ plus one) as a dashed line.
 */
export function histogramOption(bins: HistogramBin[], spread: number | null): ChartOption {
  const c = tokens();
  const top = Math.max(0, ...bins.map((b) => b.count));
  const floor = spread !== null ? Math.max(top - spread + 1, 0) : null;
  const needs = bins.some((b) => (b.needs ?? 0) > 0);
  return {
    textStyle: text(c),
    animation: false,
    grid: { left: 8, right: 32, top: needs ? 36 : 28, bottom: 8, containLabel: true },
    legend: needs ? { top: 0, textStyle: text(c) } : undefined,
    tooltip: { trigger: "axis", axisPointer: { type: "shadow" } },
    xAxis: { type: "category", name: "total score", nameLocation: "middle", nameGap: 26, data: bins.map((b) => String(b.score)) },
    yAxis: { type: "value", name: "items", minInterval: 1, splitLine: { lineStyle: { color: c.border } } },
    series: [
      {
        type: "bar",
        name: "Items",
        stack: "bin",
        barMaxWidth: 48,
        data: bins.map((b) => b.count),
        itemStyle: { color: c.primary },
        ...(floor !== null
          ? {
              markLine: {
                symbol: "none",
                silent: true,
                lineStyle: { color: c.text, type: "dashed", width: 1.5 },
                label: { formatter: `uniform within δ ${spread}`, position: "insideEndTop", color: c.text },
                data: [{ yAxis: floor }],
              },
            }
          : {}),
      },
      ...(needs
        ? [
            {
              type: "bar",
              name: "Needed",
              stack: "bin",
              barMaxWidth: 48,
              data: bins.map((b) => b.needs ?? 0),
              itemStyle: { color: "#ffe8cc", borderColor: c.warn, borderType: "dashed", borderWidth: 1 },
            },
          ]
        : []),
    ],
  };
}

export interface CorrelationCell {
  a: string;
  b: string;
  r: number | null;
  flagged: boolean;
}

/**
 * Pearson's r between binary questions as a symmetric heatmap from −1 to 1;
 * flagged pairs (|r| above the threshold) are outlined and labelled. Cells come
 * from the given pairs only, the diagonal too (a == b): an undetermined r (null:
 * too few items, or a constant answer, as SciPy's pearsonr gives nan) is a grey
 * "n/a" cell, never a value.
 */
export function correlationOption(keys: string[], labels: Map<string, string>, cells: CorrelationCell[]): ChartOption {
  const c = tokens();
  const names = keys.map((k) => labels.get(k) ?? k);
  const at = new Map(keys.map((k, i) => [k, i]));
  const data: { value: [number, number, number]; itemStyle?: object; label?: object }[] = [];
  const undetermined: { value: [number, number, number] }[] = [];
  for (const cell of cells) {
    const i = at.get(cell.a);
    const j = at.get(cell.b);
    if (i === undefined || j === undefined) continue;
    const places: [number, number][] = i === j ? [[i, i]] : [[j, i], [i, j]];
    if (cell.r === null) {
      undetermined.push(...places.map(([x, y]) => ({ value: [x, y, 0] as [number, number, number] })));
      continue;
    }
    const r = cell.r;
    const flag = cell.flagged ? { itemStyle: { borderColor: c.text, borderWidth: 2 }, label: { show: true, fontWeight: "bold" } } : {};
    data.push(...places.map(([x, y]) => ({ value: [x, y, r] as [number, number, number], ...flag })));
  }
  const small = keys.length <= 10;
  return {
    textStyle: text(c),
    animation: false,
    grid: { left: 8, right: 16, top: 8, bottom: 64, containLabel: true },
    tooltip: {
      formatter: (p: { seriesIndex: number; value: [number, number, number] }) =>
        `${names[p.value[1]]} × ${names[p.value[0]]}: r ${p.seriesIndex === 1 ? "undetermined (too few items, or a constant answer)" : `= ${fixed(p.value[2])}`}`,
    },
    xAxis: { type: "category", data: names, axisLabel: { rotate: keys.length > 4 ? 40 : 0, interval: 0, width: 100, overflow: "truncate" }, splitArea: { show: true } },
    yAxis: { type: "category", data: names, inverse: true, axisLabel: { interval: 0, width: 140, overflow: "truncate" }, splitArea: { show: true } },
    visualMap: [
      {
        min: -1,
        max: 1,
        calculable: false,
        orient: "horizontal",
        left: "center",
        bottom: 0,
        itemHeight: 160,
        text: ["r = 1", "−1"],
        seriesIndex: 0,
        inRange: { color: ["#1864ab", "#a5d8ff", "#f8f9fa", "#ffc9c9", "#c92a2a"] },
      },
      // note: a heatmap series needs a visual map; the n/a cells get one grey
      { show: false, min: 0, max: 1, seriesIndex: 1, inRange: { color: [c.border, c.border] } },
    ],
    series: [
      {
        type: "heatmap",
        name: "Pearson's r",
        data,
        label: { show: small, formatter: (p: { value: [number, number, number] }) => fixed(p.value[2]), color: c.text, fontSize: 11 },
        itemStyle: { borderColor: "#fff", borderWidth: 1 },
      },
      {
        type: "heatmap",
        name: "undetermined",
        data: undetermined,
        label: { show: small, formatter: () => "n/a", color: c.muted, fontSize: 11 },
        itemStyle: { borderColor: "#fff", borderWidth: 1 },
      },
    ],
  };
}

export interface ScorePoint {
  human: number;
  judge: number;
  count: number;
}

/** Judge score against human score, each distinct pair a dot sized by how many items have it, with the diagonal y = x. */
export function judgeScatterOption(points: ScorePoint[], model: string): ChartOption {
  const c = tokens();
  const all = points.flatMap((p) => [p.human, p.judge]);
  const lo = Math.floor(Math.min(...all, 1));
  const hi = Math.ceil(Math.max(...all, lo + 1));
  const most = Math.max(1, ...points.map((p) => p.count));
  // note: half a step of room on each side so that dots on the scale's ends are not cut by the axes
  const axis = (name: string) => ({
    type: "value",
    name,
    nameLocation: "middle",
    nameGap: 28,
    min: lo - 0.5,
    max: hi + 0.5,
    interval: 0.5,
    axisLabel: { formatter: (v: number) => (Number.isInteger(v) ? String(v) : "") },
    splitLine: { lineStyle: { color: c.border } },
  });
  return {
    textStyle: text(c),
    animation: false,
    grid: { left: 16, right: 24, top: 24, bottom: 24, containLabel: true },
    tooltip: { trigger: "item" },
    xAxis: axis("human score"),
    yAxis: axis(`${model} score`),
    series: [
      {
        type: "scatter",
        name: model,
        data: points.map((p) => [p.human, p.judge, p.count]),
        symbolSize: (v: [number, number, number]) => 8 + 28 * Math.sqrt(v[2] / most),
        itemStyle: { color: c.primary, opacity: 0.7, borderColor: "#fff", borderWidth: 1 },
        tooltip: { formatter: (p: { value: [number, number, number] }) => `human ${p.value[0]}, judge ${p.value[1]}: ${p.value[2]} item${p.value[2] === 1 ? "" : "s"}` },
        markLine: {
          symbol: "none",
          silent: true,
          lineStyle: { color: c.muted, type: "dashed" },
          label: { formatter: "judge = human", position: "insideEndTop", color: c.muted },
          data: [
            [
              { coord: [lo, lo] },
              { coord: [hi, hi] },
            ],
          ],
        },
      },
    ],
  };
}

/** Shares 0..1 per category as single bars with their percentage (e.g. adjudication rate per question). */
export function shareBarsOption(categories: string[], values: (number | null)[], name: string): ChartOption {
  const c = tokens();
  return {
    textStyle: text(c),
    animation: false,
    grid: { left: 8, right: 32, top: 28, bottom: 8, containLabel: true },
    tooltip: { trigger: "axis", axisPointer: { type: "shadow" }, valueFormatter: (v: number | null) => percent(v) },
    xAxis: { type: "category", data: categories, axisLabel: { interval: 0, rotate: categories.length > 6 ? 30 : 0, width: 120, overflow: "truncate" } },
    yAxis: { type: "value", min: 0, max: 1, name, axisLabel: { formatter: (v: number) => percent(v, 0) }, splitLine: { lineStyle: { color: c.border } } },
    series: [
      {
        type: "bar",
        name,
        barMaxWidth: 40,
        data: values,
        itemStyle: { color: c.primary },
        label: { show: true, position: "top", formatter: (p: { value: number | null }) => percent(p.value, 0), color: c.text },
      },
    ],
  };
}

/** Each model's headline figure with its 95 % interval, rows in the leaderboard's order. */
export function leaderboardIntervalOption(rows: IntervalRow[], name: string): ChartOption {
  const c = tokens();
  return { ...intervalOption(rows, name), textStyle: text(c), grid: { left: 8, right: 72, top: 20, bottom: 8, containLabel: true } };
}
