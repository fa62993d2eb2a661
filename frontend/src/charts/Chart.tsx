import { lazy, Suspense } from "react";
import type { ChartProps } from "./ChartView";
import "./charts.css";

/** Starts loading the chart library; a page that will draw charts calls it while its figures load. */
export const preloadCharts = () => import("./ChartView");

// note: ECharts is loaded with the first chart a page draws (or preloadCharts), so pages without
// charts (the work pages above all) do not download it.
const ChartView = lazy(preloadCharts);

/** One chart of the given option; see ChartView. Until the library is loaded, a loading box of its height. */
export function Chart(props: ChartProps) {
  return (
    <Suspense fallback={<ChartLoading {...props} />}>
      <ChartView {...props} />
    </Suspense>
  );
}

function ChartLoading({ height, label }: Pick<ChartProps, "height" | "label">) {
  return (
    <div className="chart chart-loading" style={{ height }} aria-busy="true" aria-label={label}>
      <div className="spinner-row" role="status">
        <span className="spinner" aria-hidden="true" />
        <span>Drawing the chart…</span>
      </div>
    </div>
  );
}
