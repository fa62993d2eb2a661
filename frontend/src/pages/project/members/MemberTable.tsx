import { useState } from "react";
import type { ID, Member, ProjectRole } from "../../../api";
import { RoleBadges } from "../../../components/RoleBadges";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { LanguagesCell } from "./LanguagesCell";
import { RoleCheckboxes } from "./RoleCheckboxes";
import { useSetRoles } from "./useSetRoles";

interface Props {
  pid: ID;
  members: Member[];
  canManage: boolean;
}

export function MemberTable({ pid, members, canManage }: Props) {
  return (
    <table className="table">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Email</th>
          <th scope="col">Roles</th>
          <th scope="col">Languages</th>
          {canManage && (
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {members.map((m) => (
          <MemberRow key={m.user_id} pid={pid} member={m} canManage={canManage} />
        ))}
      </tbody>
    </table>
  );
}

function MemberRow({ pid, member, canManage }: { pid: ID; member: Member; canManage: boolean }) {
  const [editing, setEditing] = useState<ProjectRole[] | null>(null);
  const setRoles = useSetRoles(pid);

  function save(roles: ProjectRole[]) {
    setRoles.mutate({ uid: member.user_id, roles }, { onSuccess: () => setEditing(null) });
  }

  return (
    <tr>
      <td>{member.name}</td>
      <td className="muted">{member.email}</td>
      <td>
        {editing ? (
          <RoleCheckboxes legend={`Roles for ${member.email}`} value={editing} onChange={setEditing} disabled={setRoles.isPending} />
        ) : (
          <RoleBadges roles={member.roles} />
        )}
        {setRoles.isError && <ErrorMessage error={setRoles.error} />}
      </td>
      <LanguagesCell pid={pid} member={member} canManage={canManage} />
      {canManage && (
        <td className="cell-actions">
          {editing ? (
            <>
              <button type="button" className="btn btn-primary btn-sm" onClick={() => save(editing)} disabled={setRoles.isPending}>
                Save
              </button>
              <button type="button" className="btn btn-sm" onClick={() => setEditing(null)}>
                Cancel
              </button>
            </>
          ) : (
            <>
              <button type="button" className="btn btn-sm" onClick={() => setEditing(member.roles)} aria-label={`Edit roles of ${member.email}`}>
                Edit roles
              </button>
              <button
                type="button"
                className="btn btn-sm btn-danger-ghost"
                onClick={() => {
                  if (window.confirm(`Remove ${member.email} from this project?`)) save([]);
                }}
                aria-label={`Remove ${member.email}`}
              >
                Remove
              </button>
            </>
          )}
        </td>
      )}
    </tr>
  );
}
