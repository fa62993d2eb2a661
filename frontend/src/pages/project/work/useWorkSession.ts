import type { QueueStage } from "../../../api";
import { useWorkflowApi } from "../../../api/workflow";
import { useStageProgress } from "./progress";
import { useHeartbeat } from "./useHeartbeat";
import { useWorkQueue } from "./useWorkQueue";

/**
 * Everything a work page needs around the item it shows: the queue (claim,
 * claim ahead, writes with retries), the lease kept alive, and the person's
 * progress in the stage.
 */
export function useWorkSession(pid: string, stage: QueueStage) {
  const api = useWorkflowApi();
  const queue = useWorkQueue(pid, stage);
  const leaseLost = useHeartbeat(api, pid, queue.claim?.assignment.id ?? null);
  const progress = useStageProgress(pid, stage, queue.settled);
  return { ...queue, stage, leaseLost, progress };
}

export type WorkSession = ReturnType<typeof useWorkSession>;
