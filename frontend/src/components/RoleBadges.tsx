import type { ProjectRole } from "../api";

export function RoleBadges({ roles }: { roles: readonly ProjectRole[] }) {
  if (roles.length === 0) return <span className="muted">—</span>;
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
