import { useEffect, useRef } from "react";
import { echarts, type ChartOption } from "./echarts";

export interface ChartProps {
  option: ChartOption;
  /** Height in pixels; the width follows the container. */
  height: number;
  /** What the chart shows, for screen readers (the numbers are also in a table beside it). */
  label: string;
  testId?: string;
}

/**
 * One ECharts chart drawn as SVG, resized with its container. note: the SVG
 * renderer keeps the drawing in the DOM (crisp at any zoom, readable by tests)
 * and sets styles through the CSSOM only, so it runs under the UI's
 * Content-Security-Policy, which allows no inline style.
 */
export default function ChartView({ option, height, label, testId }: ChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<ReturnType<typeof echarts.init> | null>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    // note: a container that has no layout yet (or jsdom) reports width 0; draw at a default width then.
    const c = echarts.init(el, null, { renderer: "svg", width: el.clientWidth || 640, height });
    chart.current = c;
    const fit = () => c.resize({ width: el.clientWidth || 640, height });
    const ro = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(fit);
    ro?.observe(el);
    return () => {
      ro?.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, [height]);

  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true });
  }, [option, height]);

  return <div ref={box} className="chart" style={{ height }} role="img" aria-label={label} data-testid={testId} />;
}
