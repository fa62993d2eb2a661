import { Link } from "react-router-dom";
import { useProject } from "../ProjectPage";
import { RoleBadges } from "../../../components/RoleBadges";
import { formatDateTime } from "../../../components/format";

export function OverviewTab() {
  const project = useProject();
  const base = `/projects/${encodeURIComponent(project.id)}`;
  return (
    <div className="overview">
      <div className="card">
        <h2 className="card-title">About</h2>
        <p>{project.description || <span className="muted">No description yet.</span>}</p>
        <dl className="facts">
          <dt>Project id</dt>
          <dd>
            <code>{project.id}</code>
          </dd>
          <dt>Created</dt>
          <dd>{formatDateTime(project.created_at)}</dd>
          <dt>Your roles</dt>
          <dd>
            <RoleBadges roles={project.my_roles ?? []} />
          </dd>
        </dl>
      </div>
      <div className="card">
        <h2 className="card-title">Next steps</h2>
        <ol className="steps">
          <li>
            Choose a task schema in <Link to={`${base}/settings`}>Settings</Link>.
          </li>
          <li>
            Import items in <Link to={`${base}/items`}>Items</Link>.
          </li>
          <li>
            Add annotators, reviewers and adjudicators in <Link to={`${base}/members`}>Members</Link>.
          </li>
        </ol>
      </div>
    </div>
  );
}
