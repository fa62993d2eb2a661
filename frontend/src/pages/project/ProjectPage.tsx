import { Navigate, NavLink, Outlet, useLocation, useParams } from "react-router-dom";
import { useQuery } from "@tanstack/react-query";
import { queryKeys, useApi } from "../../api";
import { useCurrentUser } from "../../auth";
import { ErrorMessage } from "../../components/ErrorMessage";
import { Spinner } from "../../components/Spinner";
import { RoleBadges } from "../../components/RoleBadges";
import { projectTabs, visibleTabs } from "./tabs";
import type { ProjectContext } from "./useProject";


export function ProjectPage() {
  const { pid = "" } = useParams();
  const api = useApi();
  const user = useCurrentUser();
  const project = useQuery({ queryKey: queryKeys.project(pid), queryFn: () => api.projects.get(pid) });
  const { pathname } = useLocation();

  if (project.isPending) {
    return (
      <div className="page">
        <Spinner label="Loading project…" />
      </div>
    );
  }
  if (project.isError) {
    return (
      <div className="page">
        <ErrorMessage error={project.error} title="Could not open this project." />
      </div>
    );
  }

  const p = project.data;
  const base = `/projects/${encodeURIComponent(p.id)}`;
  const tabs = visibleTabs(p, user);
  // A tab the member's roles do not include (an old link, a role taken away) leads to the overview.
  const current = pathname.slice(base.length + 1).split("/")[0];
  if (projectTabs.some((t) => t.path === current) && !tabs.some((t) => t.path === current)) {
    return <Navigate to={`${base}/overview`} replace />;
  }
  return (
    <div className="page">
      <header className="project-header">
        <div>
          <p className="eyebrow">Project</p>
          <h1>{p.name}</h1>
        </div>
        <RoleBadges roles={p.my_roles ?? []} />
      </header>
      <nav className="tabs" aria-label="Project sections">
        {tabs.map((t) => (
          <NavLink key={t.path} to={`${base}/${t.path}`} className={({ isActive }) => (isActive ? "tab active" : "tab")}>
            {t.label}
          </NavLink>
        ))}
      </nav>
      <section className="tab-panel">
        <Outlet context={{ project: p } satisfies ProjectContext} />
      </section>
    </div>
  );
}
