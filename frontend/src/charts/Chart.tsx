import { lazy, Suspense } from "react";
import type { ChartProps } from "./ChartView";
import "./charts.css";

// note: ECharts is loaded with the first chart a page draws, so pages without charts (the work
// pages above all) do not download it.
const ChartView = lazy(() => import("./ChartView"));

/** One chart of the given option; see ChartView. */
export function Chart(props: ChartProps) {
  return (
    <Suspense fallback={<div className="chart" style={{ height: props.height }} role="img" aria-label={props.label} aria-busy="true" />}>
      <ChartView {...props} />
    </Suspense>
  );
}
