import { useProject } from "../useProject";
import { CriteriaQueue } from "./CriteriaQueue";

/** Criteria review: the criteria annotators wrote, marked one by one beside the item they were written for. */
export function CriteriaTab() {
  const project = useProject();
  return (
    <div className="criteria-tab">
      <div className="card">
        <h2 className="card-title">Criteria to review</h2>
        <p className="muted">
          Mark each criterion valid, too vague or too specific; a valid one becomes a unit to label. You cannot mark criteria you wrote.
        </p>
        <CriteriaQueue pid={project.id} />
      </div>
    </div>
  );
}
