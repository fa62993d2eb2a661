import { useQuery } from "@tanstack/react-query";
import { useProject } from "../useProject";
import { RoleBadges } from "../../../components/RoleBadges";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { Spinner } from "../../../components/Spinner";
import { formatDateTime } from "../../../components/format";
import { useWorkflowApi, workflowKeys } from "../../../api/workflow";
import type { ProjectDetail } from "../../../api/workflowTypes";
import { FlaggedItems } from "./FlaggedItems";
import { StageBar, ThroughputTable } from "./StageBar";
import { MyProgress } from "./MyProgress";
import { StuckWork } from "./StuckWork";
import { FeasibilityNotice } from "../../projects/setup/FeasibilityNotice";
import { GuidelinesPanel } from "../work";
import "./overview.css";

/** A short line describing the project's workflow policy. */
export function policySummary(p: ProjectDetail): string {
  const w = p.workflow;
  if (!w) return "—";
  const parts = [`${w.overlap ?? 1} label${(w.overlap ?? 1) === 1 ? "" : "s"} per item`];
  if (w.criteria_stage) parts.unshift("criteria first");
  if (w.review === "cross") parts.push(w.blind_review ? "blind cross-review" : "cross-review");
  if (w.adjudication === "always") parts.push("always adjudicated");
  else if (w.adjudication === "on_disagreement") parts.push("adjudicated on disagreement");
  if (w.on_no_consensus === "drop") parts.push("dropped without consensus");
  return parts.join(" → ");
}

export function OverviewTab() {
  const project = useProject();
  const roles = project.my_roles ?? [];
  const lead = roles.includes("lead");
  const canStats = lead || roles.includes("viewer");
  const api = useWorkflowApi();
  const stats = useQuery({
    queryKey: workflowKeys.stats(project.id),
    queryFn: () => api.stats(project.id),
    enabled: canStats,
    refetchInterval: 15_000,
  });
  return (
    <div className="overview overview-lead">
      <GuidelinesPanel pid={project.id} guidelines={project.guidelines} className="span-2" />
      {lead && (
        <div className="span-2 overview-alerts">
          <FeasibilityNotice pid={project.id} quiet />
          <StuckWork pid={project.id} />
        </div>
      )}
      {canStats && (
        <div className="card span-2">
          <h2 className="card-title">Progress</h2>
          {stats.isPending ? <Spinner /> : stats.isError ? <ErrorMessage error={stats.error} /> : <StageBar stats={stats.data} />}
        </div>
      )}
      <div className="card">
        <h2 className="card-title">About</h2>
        <p>{project.description || <span className="muted">No description yet.</span>}</p>
        <dl className="facts">
          <dt>Template</dt>
          <dd>{project.template ? <code>{project.template}</code> : "Custom schema"}</dd>
          <dt>Workflow</dt>
          <dd>{policySummary(project)}</dd>
          <dt>Created</dt>
          <dd>{formatDateTime(project.created_at)}</dd>
          <dt>Your roles</dt>
          <dd>
            <RoleBadges roles={roles} />
          </dd>
        </dl>
      </div>
      {canStats ? (
        <div className="card">
          <h2 className="card-title">Throughput</h2>
          {stats.data ? <ThroughputTable stats={stats.data} /> : <Spinner />}
        </div>
      ) : (
        <div className="card">
          <h2 className="card-title">Your progress</h2>
          <MyProgress project={project} />
        </div>
      )}
      {lead && (
        <div className="card span-2">
          <h2 className="card-title">Flagged items</h2>
          <FlaggedItems pid={project.id} />
        </div>
      )}
    </div>
  );
}
