import type { QueueStage, StageProgress } from "../../../api/workflowTypes";
import { countsLeft, leftText } from "./progress";
import { Stat } from "./WorkBar";

/** The person's own counts in the work bar: done today / in total and, where the server counts it, what is left. */
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
      {countsLeft(stage) && (
        <Stat
          label="Your queue"
          title="Items still waiting for you in this stage after the one on screen"
          value={<span data-testid="progress-left">{progress ? `${leftText(progress, held)} left` : "—"}</span>}
        />
      )}
    </>
  );
}
