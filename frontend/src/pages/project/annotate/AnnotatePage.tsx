import { useMemo, useRef, useState, type ReactNode } from "react";
import { useSearchParams } from "react-router-dom";
import { ApiError } from "../../../api";
import { useWorkflowApi } from "../../../api/workflow";
import type { ProjectDetail, QueueStage } from "../../../api/workflowTypes";
import { AnnotationForm } from "../../../form/AnnotationForm";
import type { AnswerErrors, AnswerValue } from "../../../api";
import { MediaBaseContext } from "../../../media/resolve";
import { useProject } from "../useProject";
import { ActionDialog } from "./ActionDialog";
import { startingAnswers } from "./draftStore";
import { PROJECT_MEDIA_BASE } from "./mediaBase";
import { ProgressStats } from "./ProgressStats";
import { useStageProgress } from "./progress";
import { QueueEmpty, QueueError, QueueLoading, SubmitProblem } from "./QueueStates";
import { useAutosave } from "./useAutosave";
import { useHeartbeat } from "./useHeartbeat";
import { usePageKeys } from "./usePageKeys";
import { useWorkQueue } from "./useWorkQueue";
import { Elapsed, SaveIndicator, WorkBar } from "./WorkBar";
import "./work.css";

const STAGE_LABELS: Partial<Record<QueueStage, string>> = { label: "Label", criteria: "Write criteria" };

/** The stages this person may annotate in: labeling, and criteria writing when the project has it. */
export function annotateStages(p: ProjectDetail): QueueStage[] {
  return p.workflow?.criteria_stage ? ["label", "criteria"] : ["label"];
}

/** Annotate: the person's labeling queue, one item after the other. */
export function AnnotatePage() {
  const project = useProject();
  const stages = annotateStages(project);
  const [params, setParams] = useSearchParams();
  const stage = stages.find((s) => s === params.get("stage")) ?? stages[0];
  const picker =
    stages.length > 1 ? (
      <div className="seg" role="tablist" aria-label="Stage">
        {stages.map((s) => (
          <button key={s} type="button" role="tab" aria-selected={s === stage} className={s === stage ? "seg-btn on" : "seg-btn"} onClick={() => setParams({ stage: s })}>
            {STAGE_LABELS[s]}
          </button>
        ))}
      </div>
    ) : null;
  return (
    <MediaBaseContext.Provider value={PROJECT_MEDIA_BASE}>
      <LabelSession key={stage} project={project} stage={stage} picker={picker} />
    </MediaBaseContext.Provider>
  );
}

function LabelSession({ project, stage, picker }: { project: ProjectDetail; stage: QueueStage; picker: ReactNode }) {
  const api = useWorkflowApi();
  const q = useWorkQueue(project.id, stage);
  const aid = q.claim?.assignment.id ?? null;
  const autosave = useAutosave(api, aid, q.claim?.assignment.version ?? 0);
  const leaseLost = useHeartbeat(api, aid);
  const progress = useStageProgress(project.id, stage, q.settled);
  const [dialog, setDialog] = useState<"skip" | "flag" | null>(null);
  const [problem, setProblem] = useState<{ aid: string; error: unknown } | null>(null);
  const [fieldErrors, setFieldErrors] = useState<{ aid: string; errors: AnswerErrors } | null>(null);

  usePageKeys(
    [
      { key: "S", shift: true, run: () => aid && setDialog("skip") },
      { key: "F", shift: true, run: () => aid && setDialog("flag") },
    ],
    !dialog && q.status === "ready",
  );

  // note: the form is memoised on what it shows, so save-state, timer and busy
  // changes do not re-render seventeen question cards; handlers go through a ref.
  const handlers = useRef({ onSubmit });
  handlers.current.onSubmit = onSubmit;

  async function onSubmit(answers: Record<string, AnswerValue>) {
    if (!q.claim || q.busy) return;
    const at = q.claim.assignment.id;
    autosave.stop();
    setProblem(null);
    try {
      await q.submit({ answers, time_spent_ms: Math.round(performance.now() - q.shownAt) });
      setFieldErrors(null);
    } catch (err) {
      autosave.resume();
      if (err instanceof ApiError && err.code === "validation_failed") {
        setFieldErrors({ aid: at, errors: (err.details ?? {}) as AnswerErrors });
      } else {
        setProblem({ aid: at, error: err });
      }
    }
  }

  async function run(action: () => Promise<void>) {
    const at = aid;
    try {
      await action();
      setDialog(null);
    } catch (err) {
      setDialog(null);
      if (at) setProblem({ aid: at, error: err });
    }
  }

  const claim = q.claim;
  const serverErrors = fieldErrors?.aid === aid ? fieldErrors.errors : undefined;
  const change = autosave.change;
  const form = useMemo(
    () =>
      claim && (
        <AnnotationForm
          key={claim.assignment.id}
          schema={claim.item.schema}
          item={{ external_id: claim.item.item.external_id || "", inputs: claim.item.item.inputs ?? {}, meta: claim.item.item.meta }}
          initialAnswers={startingAnswers(claim.assignment.id, claim.draft)}
          onAnswersChange={change}
          onSubmit={(a) => void handlers.current.onSubmit(a)}
          serverErrors={serverErrors}
          submitLabel="Submit"
          keyboard={!dialog}
        />
      ),
    [claim, serverErrors, dialog, change],
  );
  const stats = (
    <>
      <ProgressStats stage={stage} progress={progress} held={q.held} />
      {claim && <Elapsed since={q.shownAt} />}
    </>
  );
  const actions = claim && (
    <>
      <button type="button" className="btn btn-sm" onClick={() => setDialog("skip")} disabled={q.busy}>
        Skip <kbd className="kbd">Shift+S</kbd>
      </button>
      <button type="button" className="btn btn-sm" onClick={() => setDialog("flag")} disabled={q.busy}>
        Flag <kbd className="kbd">Shift+F</kbd>
      </button>
    </>
  );
  return (
    <div className="work" data-stage={stage} data-assignment={aid ?? ""} data-testid="work">
      <WorkBar left={picker} stats={stats} status={<SaveIndicator state={autosave.state} offline={q.offline} />} actions={actions} />
      {leaseLost && (
        <div className="notice notice-warn" role="alert">
          Your hold on this item has expired; another person may get it. Your answers are kept in this browser — submit to try anyway.
        </div>
      )}
      {problem && problem.aid === aid && <SubmitProblem error={problem.error} onNext={q.reload} />}
      {q.status === "loading" && <QueueLoading />}
      {q.status === "error" && <QueueError error={q.error} onRetry={q.reload} />}
      {q.status === "empty" && <QueueEmpty stage={stage} onRetry={q.reload} done={progress?.done_today ?? 0} />}
      {q.status === "ready" && form}
      {dialog && (
        <ActionDialog
          kind={dialog}
          busy={q.busy}
          onCancel={() => setDialog(null)}
          onSkip={(reason) => void run(() => q.skip(reason))}
          onFlag={(cat, reason) => void run(() => q.flag(cat, reason))}
        />
      )}
    </div>
  );
}
