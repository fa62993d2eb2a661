import { PROJECT_ROLES, type ProjectRole } from "../api";

/** A project's roles as badges; holding every role (administrators) reads "all roles". */
export function RoleBadges({ roles }: { roles: readonly ProjectRole[] }) {
  if (roles.length === 0) return <span className="muted">—</span>;
  if (PROJECT_ROLES.every((r) => roles.includes(r))) {
    return (
      <span className="badges" title={roles.join(", ")}>
        <span className="badge badge-role-lead">all roles</span>
      </span>
    );
  }
  return (
    <span className="badges">
      {roles.map((r) => (
        <span key={r} className={`badge badge-role-${r}`}>
          {r}
        </span>
      ))}
    </span>
  );
}
