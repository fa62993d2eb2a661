import { useState, type FormEvent } from "react";
import { ApiError, type ID, type MemberChange, type ProjectRole } from "../../../api";
import { Field } from "../../../components/Field";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { RoleCheckboxes } from "./RoleCheckboxes";
import { useSetRoles } from "./useSetRoles";

/** The roles the form starts with, and returns to after each person. */
const DEFAULT_ROLES: ProjectRole[] = ["annotator"];

/**
 * Adds a person, or changes their roles, by email or user id: the server
 * takes either as the member's key, so leads need no access to the user list.
 */
export function AddMemberForm({ pid }: { pid: ID }) {
  const setRoles = useSetRoles(pid);
  const [who, setWho] = useState("");
  const [roles, setRolesValue] = useState<ProjectRole[]>(DEFAULT_ROLES);
  const [saved, setSaved] = useState<string | null>(null);
  const [tried, setTried] = useState("");

  function submit(e: FormEvent) {
    e.preventDefault();
    setSaved(null);
    const ref = who.trim();
    if (!ref) return;
    setTried(ref);
    setRoles.mutate(
      { uid: ref, roles },
      {
        onSuccess: (m) => {
          setSaved(changeText(m));
          setWho("");
          setRolesValue(DEFAULT_ROLES);
        },
      },
    );
  }

  const err = setRoles.error;
  const unknown = err instanceof ApiError && err.status === 404;
  return (
    <form className="card form-card stack" onSubmit={submit} aria-label="Set member roles">
      <h2 className="card-title">Add a member or change roles</h2>
      {unknown ? (
        <div className="notice notice-error" role="alert">
          <span>
            No user has the {tried.includes("@") ? "email" : "id"} <strong>{tried}</strong>. An administrator can create the account first.
          </span>
        </div>
      ) : (
        <ErrorMessage error={err} />
      )}
      {saved && (
        <div className="notice notice-success" role="status">
          {saved}
        </div>
      )}
      <Field
        label="Email or user id"
        name="user"
        required
        value={who}
        className="field-narrow"
        autoComplete="off"
        onChange={(e) => setWho(e.target.value)}
        hint="Someone not in the project yet is invited by email and joins on accepting; an administrator adds them at once."
      />
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

/** What the server did with the roles, in a sentence. */
export function changeText(m: MemberChange): string {
  const who = m.name ? `${m.name} (${m.email})` : m.email;
  if (m.status === "removed") return `${who} was removed from the project.`;
  if (m.status === "invited") {
    return m.roles.length ? `Invited ${m.email} as ${m.roles.join(", ")}. They join the project when they accept.` : `The invitation to ${m.email} was withdrawn.`;
  }
  return `${who} now has: ${m.roles.join(", ")}.`;
}
