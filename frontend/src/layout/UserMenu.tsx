import { NavLink } from "react-router-dom";
import type { User } from "../api";

function initials(name: string, email: string): string {
  const src = name.trim() || email;
  const parts = src.split(/[\s@._-]+/).filter(Boolean);
  return ((parts[0]?.[0] ?? "?") + (parts[1]?.[0] ?? "")).toUpperCase();
}

/** The signed-in user's name, their token page, and sign out. */
export function UserMenu({ user, onLogout }: { user: User; onLogout: () => void }) {
  return (
    <div className="user-menu">
      <NavLink to="/account" className={({ isActive }) => (isActive ? "nav-link active" : "nav-link")}>
        My account
      </NavLink>
      <NavLink to="/settings/tokens" className={({ isActive }) => (isActive ? "nav-link active" : "nav-link")}>
        Access tokens
      </NavLink>
      <span className="user-chip" title={user.email}>
        <span className="avatar" aria-hidden="true">
          {initials(user.name, user.email)}
        </span>
        <span className="user-name" data-testid="current-user">
          {user.name || user.email}
        </span>
        {user.is_admin && <span className="badge badge-admin">admin</span>}
      </span>
      <button type="button" className="btn btn-ghost" onClick={onLogout}>
        Sign out
      </button>
    </div>
  );
}
