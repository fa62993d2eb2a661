import { Link } from "react-router-dom";
import type { Project } from "../../api";
import { RoleBadges } from "../../components/RoleBadges";
import { formatDate } from "../../components/format";

export function ProjectList({ projects }: { projects: Project[] }) {
  return (
    <ul className="project-grid" aria-label="Projects">
      {projects.map((p) => (
        <li key={p.id} className="card project-card">
          <Link to={`/projects/${encodeURIComponent(p.id)}`} className="project-link">
            <h2>{p.name}</h2>
          </Link>
          <p className="project-desc">{p.description || <span className="muted">No description.</span>}</p>
          <div className="project-meta">
            <RoleBadges roles={p.my_roles ?? []} />
            <span className="muted">Created {formatDate(p.created_at)}</span>
          </div>
        </li>
      ))}
    </ul>
  );
}
