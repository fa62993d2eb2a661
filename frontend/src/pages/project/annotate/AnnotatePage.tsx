import { useState, type ReactNode } from "react";
import { useSearchParams } from "react-router-dom";
import type { ProjectDetail, QueueStage } from "../../../api";
import { useWorkflowApi } from "../../../api/workflow";
import { MediaBaseContext } from "../../../media/resolve";
import { useProject } from "../useProject";
import { GuidelinesPanel, ItemActions, PROJECT_MEDIA_BASE, useAutosave, useWorkSession, WorkFrame, type ItemDialog } from "../work";
import { LabelBody } from "./LabelBody";

const STAGE_LABELS: Partial<Record<QueueStage, string>> = { label: "Label", criteria: "Write criteria", checklist: "Refine checklists" };

/** The stages this person may annotate in: labeling, and criteria writing or checklist refinement when the project has it. */
export function annotateStages(p: ProjectDetail): QueueStage[] {
  if (p.workflow?.criteria_stage) return ["label", "criteria"];
  if (p.workflow?.checklist_stage) return ["label", "checklist"];
  return ["label"];
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
      <LabelSession key={stage} pid={project.id} stage={stage} picker={picker} />
    </MediaBaseContext.Provider>
  );
}

/** One person's labeling session in a stage (label, criteria, or a calibration round's items). */
export function LabelSession({ pid, stage, picker }: { pid: string; stage: QueueStage; picker: ReactNode }) {
  const api = useWorkflowApi();
  const project = useProject();
  const session = useWorkSession(pid, stage);
  const aid = session.claim?.assignment.id ?? null;
  const autosave = useAutosave(api, pid, aid, session.claim?.assignment.version ?? 0);
  const [dialog, setDialog] = useState<ItemDialog>(null);
  return (
    <WorkFrame
      session={session}
      left={picker}
      guidelines={<GuidelinesPanel pid={pid} guidelines={project.guidelines} />}
      saveState={autosave.state}
      leaseText="Your hold on this item has expired; another person may get it. Your answers are kept in this browser — submit to try anyway."
      actions={aid && <ItemActions session={session} aid={aid} dialog={dialog} onDialog={setDialog} />}
    >
      {(claim) => (
        <LabelBody
          claim={claim}
          elapsed={session.elapsed}
          submit={session.submit}
          onChange={autosave.change}
          pause={autosave.stop}
          resume={autosave.resume}
          keyboard={!dialog}
          refused={session.problem?.aid === claim.assignment.id ? session.problem.fields : undefined}
        />
      )}
    </WorkFrame>
  );
}
