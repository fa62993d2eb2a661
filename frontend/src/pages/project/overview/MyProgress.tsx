import { Link } from "react-router-dom";
import { useQuery } from "@tanstack/react-query";
import type { ProjectDetail, ProjectRole } from "../../../api";
import { useWorkflowApi, workflowKeys } from "../../../api/workflow";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { Spinner } from "../../../components/Spinner";
import { MyRejections } from "./MyRejections";
import { STAGE_LABEL } from "./StageBar";

/** Which role works each stage, and the tab where it is done. */
const STAGE_WORK: Record<string, { role: ProjectRole; tab: string }> = {
  criteria: { role: "annotator", tab: "annotate" },
  label: { role: "annotator", tab: "annotate" },
  review: { role: "reviewer", tab: "review" },
  adjudicate: { role: "adjudicator", tab: "adjudicate" },
};

/**
 * The member's own work per stage they hold the role for: done today, done in
 * all, and what is waiting for them; for annotators, the labels a reviewer
 * rejected with the reasons.
 */
export function MyProgress({ project }: { project: ProjectDetail }) {
  const api = useWorkflowApi();
  const roles = project.my_roles ?? [];
  const q = useQuery({ queryKey: workflowKeys.myProgress(project.id), queryFn: () => api.myProgress(project.id), refetchInterval: 30_000 });
  if (q.isPending) return <Spinner />;
  if (q.isError) return <ErrorMessage error={q.error} />;
  const base = `/projects/${encodeURIComponent(project.id)}`;
  const stages = q.data.stages.filter((s) => STAGE_WORK[s.stage] && roles.includes(STAGE_WORK[s.stage].role));
  const criteria = roles.includes("reviewer") && project.workflow?.criteria_stage && (
    <p className="my-criteria">
      <Link className="btn btn-sm" to={`${base}/criteria`}>
        Review criteria
      </Link>{" "}
      <span className="muted">the criteria annotators wrote, beside the items they wrote them for.</span>
    </p>
  );
  if (stages.length === 0) return criteria || <p className="muted">You have no work roles in this project.</p>;
  return (
    <>
      <table className="table" aria-label="Your progress">
        <thead>
          <tr>
            <th scope="col">Stage</th>
            <th scope="col" className="num-col">
              Today
            </th>
            <th scope="col" className="num-col">
              Done
            </th>
            <th scope="col" className="num-col">
              Waiting for you
            </th>
            <th scope="col">
              <span className="sr-only">Open</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {stages.map((s) => (
            <tr key={s.stage} data-stage={s.stage}>
              <td>
                <span className={`stage-chip stage-${s.stage}`}>{STAGE_LABEL[s.stage] ?? s.stage}</span>
              </td>
              <td className="num-col">{s.done_today}</td>
              <td className="num-col">{s.done_total}</td>
              <td className="num-col">
                {s.available.toLocaleString()}
                {s.available_capped ? "+" : ""}
              </td>
              <td className="cell-actions">
                <Link className="btn btn-sm" to={`${base}/${STAGE_WORK[s.stage].tab}`}>
                  {s.available > 0 ? "Start" : "Open"}
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {roles.includes("annotator") && <MyRejections project={project} />}
      {criteria}
    </>
  );
}
