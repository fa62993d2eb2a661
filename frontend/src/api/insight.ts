// Typed calls and types for the dataset views a lead reads before release:
// balance and readiness, the dataset report (loss accounting) and the judge
// leaderboard. The types are aliases of those generated from docs/openapi.yaml.
import { useMemo } from "react";
import type { ApiClient } from "./client";
import { useApiClient } from "./context";
import type { Component } from "./contract";
import type { ID } from "./types";

/** A project's balance targets (ρ, δ and the metadata key to count by). */
export type BalanceTargets = Component<"BalanceTargets">;
/** GET /projects/:pid/balance. */
export type BalanceReport = Component<"BalanceReport">;
export type BalanceBinary = NonNullable<BalanceReport["binary"]>;
export type BalanceDimension = BalanceBinary["dimensions"][number];
export type BalanceBin = BalanceBinary["histogram"][number];
export type BalanceCorrelation = BalanceBinary["correlations"][number];
export type MetaCounts = BalanceReport["meta"][number];
export type Distribution = Component<"Distribution">;
export type ValueCount = Component<"ValueCount">;

/** GET /projects/:pid/report. */
export type DatasetReport = Component<"DatasetReport">;

/** GET /projects/:pid/judges. */
export type JudgeBoard = Component<"JudgeBoard">;
export type JudgeGroup = JudgeBoard["groups"][number];
export type JudgeRow = JudgeGroup["rows"][number];
export type JudgeReport = Component<"JudgeReport">;

/** The leaderboard's bootstrap options, each an item metadata key ("" for none). */
export interface JudgeOptions {
  cluster_key?: string;
  strata_key?: string;
  system_key?: string;
}

/** The balance, report and judge endpoints, and the balance targets in PATCH. */
export function insightApi(c: ApiClient) {
  return {
    balance: (pid: ID) => c.get("/projects/{pid}/balance", { path: { pid } }),
    report: (pid: ID) => c.get("/projects/{pid}/report", { path: { pid } }),
    /** The leaderboard; an option left empty is not sent. */
    judges: (pid: ID, o: JudgeOptions = {}) =>
      c.get("/projects/{pid}/judges", {
        path: { pid },
        query: { cluster_key: o.cluster_key || undefined, strata_key: o.strata_key || undefined, system_key: o.system_key || undefined },
      }),
    /** Replaces the project's balance targets. */
    setTargets: (pid: ID, balance: BalanceTargets) => c.patch("/projects/{pid}", { path: { pid }, body: { balance } }),
  };
}

export function useInsightApi() {
  const c = useApiClient();
  return useMemo(() => insightApi(c), [c]);
}

export const insightKeys = {
  balance: (pid: ID) => ["projects", pid, "balance"] as const,
  report: (pid: ID) => ["projects", pid, "report"] as const,
  judges: (pid: ID, o: JudgeOptions) => ["projects", pid, "judges", o.cluster_key ?? "", o.strata_key ?? "", o.system_key ?? ""] as const,
};
