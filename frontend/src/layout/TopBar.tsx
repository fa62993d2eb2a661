import { Link, NavLink, useNavigate } from "react-router-dom";
import { useAuth, useCurrentUser } from "../auth";
import { UserMenu } from "./UserMenu";

const navClass = ({ isActive }: { isActive: boolean }) => (isActive ? "nav-link active" : "nav-link");

export function TopBar() {
  const user = useCurrentUser();
  const { logout } = useAuth();
  const navigate = useNavigate();

  async function onLogout() {
    await logout();
    navigate("/login", { replace: true });
  }

  return (
    <header className="topbar">
      <Link to="/projects" className="brand" aria-label="Arbiter home">
        <img src="/favicon.svg" alt="" width={24} height={24} />
        <span>Arbiter</span>
      </Link>
      <nav className="topnav" aria-label="Main">
        <NavLink to="/projects" className={navClass}>
          Projects
        </NavLink>
        <NavLink to="/templates" className={navClass}>
          Templates
        </NavLink>
        {user.is_admin && (
          <NavLink to="/admin/users" className={navClass}>
            Users
          </NavLink>
        )}
      </nav>
      <UserMenu user={user} onLogout={onLogout} />
    </header>
  );
}
