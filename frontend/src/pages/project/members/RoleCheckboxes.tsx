import { PROJECT_ROLES, type ProjectRole } from "../../../api";

const ROLE_HELP: Record<ProjectRole, string> = {
  lead: "sets up the project and watches quality",
  annotator: "labels items",
  reviewer: "cross-reviews labels",
  adjudicator: "resolves disagreements",
  viewer: "read-only access",
};

interface Props {
  value: ProjectRole[];
  onChange(roles: ProjectRole[]): void;
  legend?: string;
  disabled?: boolean;
}

/** One checkbox per project role, kept in the canonical role order. */
export function RoleCheckboxes({ value, onChange, legend = "Roles", disabled }: Props) {
  function toggle(role: ProjectRole, on: boolean) {
    const next = new Set(value);
    if (on) next.add(role);
    else next.delete(role);
    onChange(PROJECT_ROLES.filter((r) => next.has(r)));
  }
  return (
    <fieldset className="role-checkboxes" disabled={disabled}>
      <legend>{legend}</legend>
      {PROJECT_ROLES.map((role) => (
        <label key={role} className="check" title={ROLE_HELP[role]}>
          <input type="checkbox" checked={value.includes(role)} onChange={(e) => toggle(role, e.target.checked)} />
          <span>{role}</span>
        </label>
      ))}
    </fieldset>
  );
}
