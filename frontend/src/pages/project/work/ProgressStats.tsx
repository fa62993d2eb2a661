import type { QueueStage, StageProgress } from "../../../api/workflowTypes";
import { leftText } from "./progress";
import { Stat } from "./WorkBar";
import { useTranslation } from "react-i18next";


/** The person's own counts in the work bar: done today / in total and what is left for them in the stage. */
export function ProgressStats({ stage, progress, held = 0 }: { stage: QueueStage; progress: StageProgress | null; held?: number }) {
  const { t, i18n } = useTranslation();
  const waiting: Record<QueueStage, string> = {
    label: t("work.progress.waiting.label"),
    criteria: t("work.progress.waiting.criteria"),
    checklist: t("work.progress.waiting.checklist"),
    review: t("work.progress.waiting.review"),
    adjudicate: t("work.progress.waiting.adjudicate"),
    calibration: t("work.progress.waiting.calibration"),
  };
  const n = (v: number) => v.toLocaleString(i18n.language);
  return (
    <>
      <Stat
        label={t("work.progress.done")}
        title={t("work.progress.doneTitle")}
        value={
          <span data-testid="progress-done">
            {progress ? `${n(progress.done_today)} / ${n(progress.done_total)}` : "—"}
          </span>
        }
      />
      <Stat
        label={t("work.progress.queue")}
        title={waiting[stage]}
        value={<span data-testid="progress-left">{progress ? t("work.progress.left", { left: leftText(progress, held) }) : "—"}</span>}
      />
    </>
  );
}
