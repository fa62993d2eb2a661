import { Link } from "react-router-dom";
import { useQuery } from "@tanstack/react-query";
import { queryKeys, useApi } from "../../api";
import { useCurrentUser } from "../../auth";
import { PageHeader } from "../../components/PageHeader";
import { Spinner } from "../../components/Spinner";
import { ErrorMessage } from "../../components/ErrorMessage";
import { EmptyState } from "../../components/EmptyState";
import { ProjectList } from "./ProjectList";
import { InvitationList } from "./InvitationList";

export function ProjectsPage() {
  const api = useApi();
  const user = useCurrentUser();
  const mayCreate = user.is_admin || user.can_create_projects;
  const projects = useQuery({ queryKey: queryKeys.projects, queryFn: api.projects.list });

  return (
    <div className="page">
      <PageHeader
        title="Projects"
        subtitle={user.is_admin ? "All projects on this server." : "Projects you are a member of."}
        actions={
          mayCreate && (
            <Link className="btn btn-primary" to="/projects/new">
              New project
            </Link>
          )
        }
      />
      <InvitationList />
      {projects.isPending && <Spinner label="Loading projects…" />}
      {projects.isError && <ErrorMessage error={projects.error} title="Could not load projects." />}
      {projects.data && projects.data.length === 0 && (
        <EmptyState title="No projects yet">
          {mayCreate
            ? "Create a project to start importing items and inviting annotators, or ask a project lead to invite you to theirs."
            : "Ask a project lead to invite you to their project; invitations appear here."}
        </EmptyState>
      )}
      {projects.data && projects.data.length > 0 && <ProjectList projects={projects.data} />}
    </div>
  );
}
