import { useState, type FormEvent } from "react";
import { useQuery } from "@tanstack/react-query";
import { queryKeys, useApi, type ID, type Member, type ProjectRole, type User } from "../../../api";
import { Field } from "../../../components/Field";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { RoleCheckboxes } from "./RoleCheckboxes";
import { useSetRoles } from "./useSetRoles";

/**
 * Resolves what was typed (an email or a user id) to a user id, using the
 * user directory when the caller may read it and the current members.
 */
export function resolveUserId(input: string, users: User[] | undefined, members: Member[]): ID {
  const q = input.trim();
  if (!q.includes("@")) return q;
  const email = q.toLowerCase();
  const member = members.find((m) => m.email.toLowerCase() === email);
  if (member) return member.user_id;
  const user = users?.find((u) => u.email.toLowerCase() === email);
  if (user) return user.id;
  throw new Error(
    users ? `No user has the email ${q}.` : `Cannot look up ${q}: enter the user's id instead, or ask an administrator.`,
  );
}

export function AddMemberForm({ pid, members }: { pid: ID; members: Member[] }) {
  const api = useApi();
  // The user directory helps resolve emails; non-admins may not be allowed to read it.
  const users = useQuery({ queryKey: queryKeys.users, queryFn: api.users.list, retry: false });
  const setRoles = useSetRoles(pid);
  const [who, setWho] = useState("");
  const [roles, setRolesValue] = useState<ProjectRole[]>(["annotator"]);
  const [localError, setLocalError] = useState<Error | null>(null);
  const [saved, setSaved] = useState<string | null>(null);

  function submit(e: FormEvent) {
    e.preventDefault();
    setLocalError(null);
    setSaved(null);
    let uid: ID;
    try {
      uid = resolveUserId(who, users.data, members);
    } catch (err) {
      setLocalError(err as Error);
      return;
    }
    setRoles.mutate(
      { uid, roles },
      {
        onSuccess: (m) => {
          setSaved(roles.length ? `${m?.email ?? who} now has: ${roles.join(", ")}.` : `${who} was removed.`);
          setWho("");
        },
      },
    );
  }

  return (
    <form className="card form-card stack" onSubmit={submit} aria-label="Set member roles">
      <h2 className="card-title">Add a member or change roles</h2>
      <ErrorMessage error={localError ?? setRoles.error} />
      {saved && (
        <div className="notice notice-success" role="status">
          {saved}
        </div>
      )}
      <Field
        label="User email or id"
        name="user"
        required
        list="member-user-options"
        value={who}
        className="field-narrow"
        onChange={(e) => setWho(e.target.value)}
        hint={users.data ? "Start typing to pick an existing user." : "A user id, or the email of a current member."}
      />
      <datalist id="member-user-options">
        {users.data?.map((u) => (
          <option key={u.id} value={u.email}>
            {u.name}
          </option>
        ))}
      </datalist>
      <div>
        <RoleCheckboxes value={roles} onChange={setRolesValue} />
        <small className="field-hint">Saving with no role removes the user from the project.</small>
      </div>
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={setRoles.isPending}>
          {setRoles.isPending ? "Saving…" : "Save roles"}
        </button>
      </div>
    </form>
  );
}
