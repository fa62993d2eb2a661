import { useQuery } from "@tanstack/react-query";
import { queryKeys, useApi, type ProjectDetail } from "../../../api";
import { useWorkflowApi, workflowKeys } from "../../../api/workflow";
import { EmptyState } from "../../../components/EmptyState";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { RoleBadges } from "../../../components/RoleBadges";
import { policySummary } from "../../project/overview/OverviewTab";
import { AddMemberForm } from "../../project/members/AddMemberForm";
import { ImportCard } from "../../project/items/ImportCard";
import { FeasibilityNotice } from "../setup/FeasibilityNotice";
import { MediaImportCard } from "../../project/items/MediaImportCard";
import "../../project/items/items.css";

/** Step 3: people by email with their roles, checked against the policy as they are added. */
export function MembersStep({ project }: { project: ProjectDetail }) {
  const api = useApi();
  const members = useQuery({ queryKey: queryKeys.members(project.id), queryFn: () => api.projects.members(project.id) });
  const invitations = useQuery({ queryKey: [...queryKeys.members(project.id), "invitations"], queryFn: () => api.projects.invitations(project.id) });
  return (
    <div className="wizard-columns">
      <AddMemberForm pid={project.id} />
      <div className="stack">
        <FeasibilityNotice pid={project.id} />
        <div className="card">
          <h2 className="card-title">Members</h2>
          {members.isError && <ErrorMessage error={members.error} />}
          {members.data && (
            <ul className="member-list" aria-label="Members">
              {members.data.map((m) => (
                <li key={m.user_id}>
                  <span>
                    {m.name} <span className="muted">{m.email}</span>
                  </span>
                  <RoleBadges roles={m.roles} />
                </li>
              ))}
            </ul>
          )}
          {invitations.data && invitations.data.length > 0 && (
            <>
              <h3 className="wizard-subtitle">Invited, not joined yet</h3>
              <ul className="member-list" aria-label="Invitations">
                {invitations.data.map((inv) => (
                  <li key={inv.id}>
                    <span>{inv.email}</span>
                    <RoleBadges roles={inv.roles} />
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      </div>
    </div>
  );
}

/** Step 4: items from a file (with a background import), or with a zip of their media. */
export function ItemsStep({ project }: { project: ProjectDetail }) {
  return (
    <div className="stack-lg">
      <ImportCard pid={project.id} />
      <MediaImportCard pid={project.id} />
    </div>
  );
}

/** Step 5: what is set up, and what the policy still needs of the members. */
export function ReadyStep({ project }: { project: ProjectDetail }) {
  const wf = useWorkflowApi();
  const api = useApi();
  const stats = useQuery({ queryKey: workflowKeys.stats(project.id), queryFn: () => wf.stats(project.id) });
  const members = useQuery({ queryKey: queryKeys.members(project.id), queryFn: () => api.projects.members(project.id) });
  const invited = useQuery({ queryKey: [...queryKeys.members(project.id), "invitations"], queryFn: () => api.projects.invitations(project.id) });
  const items = stats.data?.items.reduce((n, c) => n + c.count, 0);
  return (
    <div className="stack-lg">
      <FeasibilityNotice pid={project.id} />
      <div className="card">
        <h2 className="card-title">{project.name}</h2>
        <dl className="facts">
          <dt>Schema</dt>
          <dd>{project.template ? <code>{project.template}</code> : "Custom schema"} · {project.schema?.questions.length ?? 0} questions</dd>
          <dt>Workflow</dt>
          <dd>{policySummary(project)}</dd>
          <dt>Members</dt>
          <dd>
            {members.data ? members.data.length : "…"}
            {invited.data && invited.data.length > 0 && `, and ${invited.data.length} invited who have not joined yet`}
          </dd>
          <dt>Items</dt>
          <dd>{items ?? "…"}</dd>
        </dl>
        {items === 0 && <EmptyState title="No items yet">Import them here or later in the Items tab.</EmptyState>}
      </div>
    </div>
  );
}
