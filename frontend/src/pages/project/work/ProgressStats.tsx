import type { QueueStage, StageProgress } from "../../../api/workflowTypes";
import { leftText } from "./progress";
import { Stat } from "./WorkBar";

const WAITING: Record<QueueStage, string> = {
  label: "Items",
  criteria: "Items",
  checklist: "Checklists to refine",
  review: "Labels to review",
  adjudicate: "Items to adjudicate",
  calibration: "Calibration items",
};

/** The person's own counts in the work bar: done today / in total and what is left for them in the stage. */
export function ProgressStats({ stage, progress, held = 0 }: { stage: QueueStage; progress: StageProgress | null; held?: number }) {
  return (
    <>
      <Stat
        label="Done today / total"
        title="What you submitted in this stage today (since midnight UTC) and in total"
        value={
          <span data-testid="progress-done">
            {progress ? `${progress.done_today.toLocaleString()} / ${progress.done_total.toLocaleString()}` : "—"}
          </span>
        }
      />
      <Stat
        label="Your queue"
        title={`${WAITING[stage]} still waiting for you after the one on screen`}
        value={<span data-testid="progress-left">{progress ? `${leftText(progress, held)} left` : "—"}</span>}
      />
    </>
  );
}
