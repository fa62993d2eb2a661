import { useQuery } from "@tanstack/react-query";
import { queryKeys, useApi } from "../../../api";
import { useCurrentUser } from "../../../auth";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { Spinner } from "../../../components/Spinner";
import { EmptyState } from "../../../components/EmptyState";
import { useProject } from "../useProject";
import { MemberTable } from "./MemberTable";
import { AddMemberForm } from "./AddMemberForm";

export function MembersTab() {
  const project = useProject();
  const user = useCurrentUser();
  const api = useApi();
  const members = useQuery({ queryKey: queryKeys.members(project.id), queryFn: () => api.projects.members(project.id) });
  // note: the server decides; this only hides controls that would be refused.
  const canManage = user.is_admin || (project.my_roles ?? []).includes("lead");

  return (
    <div className="stack-lg">
      {canManage && <AddMemberForm pid={project.id} />}
      <div className="card">
        <h2 className="card-title">Members</h2>
        {members.isPending && <Spinner label="Loading members…" />}
        {members.isError && <ErrorMessage error={members.error} title="Could not load members." />}
        {members.data && members.data.length === 0 && (
          <EmptyState title="No members yet">Add people by email with the roles they should have.</EmptyState>
        )}
        {members.data && members.data.length > 0 && (
          <MemberTable pid={project.id} members={members.data} canManage={canManage} />
        )}
      </div>
    </div>
  );
}
