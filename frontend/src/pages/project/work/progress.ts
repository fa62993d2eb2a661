// The person's own progress in a stage, from GET /projects/:pid/me/progress:
// done today, done in total and how much is left for them.
import { useEffect } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useWorkflowApi, workflowKeys } from "../../../api/workflow";
import type { QueueStage, StageProgress } from "../../../api/workflowTypes";

/**
 * The work left after the item on screen: what the server could still give
 * (`available`, which leaves out items this person holds) plus the items held
 * ahead; "1000+" when the server stopped counting.
 */
export function leftText(p: Pick<StageProgress, "available" | "available_capped">, held = 0): string {
  return p.available_capped ? `${p.available}+` : String(p.available + held);
}

/** Runs fn once the browser has painted what is being rendered now (a frame, then a task). */
export function afterPaint(fn: () => void): () => void {
  let timer = 0;
  const raf = typeof requestAnimationFrame === "function" ? requestAnimationFrame : (cb: FrameRequestCallback) => window.setTimeout(() => cb(0), 0);
  const caf = typeof cancelAnimationFrame === "function" ? cancelAnimationFrame : window.clearTimeout;
  const frame = raf(() => {
    timer = window.setTimeout(fn, 0);
  });
  return () => {
    caf(frame);
    window.clearTimeout(timer);
  };
}

/**
 * The caller's progress in one stage, or null until it is known. It is read
 * when the queue settles (`settled` from useWorkQueue: an item is shown and
 * the one after it claimed), so it never delays an item and its counts match
 * what the person holds; each later settle — after every submit — reads it again.
 * An answer read before the first settle (the overview's, kept in the cache)
 * counts the shown item and the one held ahead as available, so it is not shown.
 */
export function useStageProgress(pid: string, stage: QueueStage, settled: number): StageProgress | null {
  const api = useWorkflowApi();
  const qc = useQueryClient();
  const q = useQuery({
    queryKey: workflowKeys.myProgress(pid),
    queryFn: () => api.myProgress(pid),
    enabled: settled > 0,
    staleTime: 0, // note: so that the first settle reads it even when another page just did
    refetchInterval: 60_000,
    retry: false,
  });
  useEffect(() => {
    if (settled < 2) return; // the first settle enables the query, which reads it then
    return afterPaint(() => void qc.invalidateQueries({ queryKey: workflowKeys.myProgress(pid) }));
  }, [settled, qc, pid]);
  // note: the query is enabled at the first settle, so what was fetched after mount was read then
  if (!q.data || !q.isFetchedAfterMount) return null;
  return q.data.stages.find((s) => s.stage === stage) ?? null;
}
