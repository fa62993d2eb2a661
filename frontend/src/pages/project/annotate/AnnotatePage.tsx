import { useEffect, useState, type ReactNode } from "react";
import { useSearchParams } from "react-router-dom";
import type { ProjectDetail, QueueStage } from "../../../api";
import { useQuery } from "@tanstack/react-query";
import { useWorkflowApi, workflowKeys } from "../../../api/workflow";
import type { MyProgress } from "../../../api/workflowTypes";
import { Spinner } from "../../../components/Spinner";
import { MediaBaseContext } from "../../../media/resolve";
import { useProject } from "../useProject";
import { GuidelinesPanel, ItemActions, PROJECT_MEDIA_BASE, useAutosave, useWorkSession, WorkFrame, type ItemDialog } from "../work";
import { LabelBody } from "./LabelBody";
import { useTranslation } from "react-i18next";


/** The stages this person may annotate in: labeling, and criteria writing or checklist refinement when the project has it. */
export function annotateStages(p: ProjectDetail): QueueStage[] {
  if (p.workflow?.criteria_stage) return ["label", "criteria"];
  if (p.workflow?.checklist_stage) return ["label", "checklist"];
  return ["label"];
}

/**
 * The stage to start in: the first of `stages` with work waiting for the person,
 * else the first; null while their progress is being read.
 */
export function startStage(stages: QueueStage[], progress: MyProgress | undefined, failed: boolean): QueueStage | null {
  if (stages.length === 1 || failed) return stages[0];
  if (!progress) return null;
  return stages.find((s) => progress.stages.some((p) => p.stage === s && p.available > 0)) ?? stages[0];
}

/** Annotate: the person's labeling queue, one item after the other, in the stage that has work for them. */
export function AnnotatePage() {
  const { t } = useTranslation();
  const project = useProject();
  const api = useWorkflowApi();
  const stages = annotateStages(project);
  const [params, setParams] = useSearchParams();
  const asked = stages.find((s) => s === params.get("stage"));
  const progress = useQuery({
    queryKey: workflowKeys.myProgress(project.id),
    queryFn: () => api.myProgress(project.id),
    enabled: !asked && stages.length > 1,
    retry: false,
  });
  const stage = asked ?? startStage(stages, progress.data, progress.isError);
  // The stage chosen stays in the address, so that it does not change under the person as counts change.
  useEffect(() => {
    if (!asked && stage && stages.length > 1) setParams({ stage }, { replace: true });
  }, [asked, stage, stages.length, setParams]);
  if (!stage) return <Spinner label={t("annotate.finding")} />;
  const stageLabels: Partial<Record<QueueStage, string>> = { label: t("annotate.stage.label"), criteria: t("annotate.stage.criteria"), checklist: t("annotate.stage.checklist") };
  const picker =
    stages.length > 1 ? (
      <div className="seg" role="tablist" aria-label={t("annotate.stagePicker")}>
        {stages.map((s) => (
          <button key={s} type="button" role="tab" aria-selected={s === stage} className={s === stage ? "seg-btn on" : "seg-btn"} onClick={() => setParams({ stage: s })}>
            {stageLabels[s]}
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
  const { t } = useTranslation();
  return (
    <WorkFrame
      session={session}
      left={picker}
      guidelines={<GuidelinesPanel pid={pid} guidelines={project.guidelines} />}
      saveState={autosave.state}
      leaseText={t("annotate.leaseLost")}
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
