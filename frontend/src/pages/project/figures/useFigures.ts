// The figures the server computes in the background and keeps (agreement,
// balance, the dataset report, the judges' leaderboard): each answer says
// whether newer figures are being computed, and while they are the page asks
// again.
import { useEffect } from "react";
import { keepPreviousData, useQuery, type QueryKey } from "@tanstack/react-query";
import { preloadCharts } from "../../../charts";

/** How often a page that waits for the figures asks again. */
export const COMPUTING_POLL_MS = 3000;

/** An answer of computed figures: `computing` while newer ones are on the way. */
export interface Computed {
  status: "ready" | "computing";
}

/**
 * The query of one set of computed figures, polled every COMPUTING_POLL_MS
 * while the server says it is computing. With keepPrevious the figures on
 * screen stay while other ones (new options) load. The chart library loads
 * meanwhile, so the charts are drawn as soon as the figures are there.
 */
export function useFigures<T extends Computed>(queryKey: QueryKey, queryFn: () => Promise<T>, { keepPrevious = false } = {}) {
  useEffect(() => void preloadCharts(), []);
  return useQuery({
    queryKey,
    queryFn,
    placeholderData: keepPrevious ? keepPreviousData : undefined,
    refetchInterval: (query) => (query.state.data?.status === "computing" ? COMPUTING_POLL_MS : false),
  });
}
