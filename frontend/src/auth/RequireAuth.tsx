import type { ReactNode } from "react";
import { Navigate, useLocation } from "react-router-dom";
import { useAuth } from "./AuthProvider";
import { FullPageSpinner } from "../components/Spinner";

/** Renders its children for a signed-in user; otherwise sends them to /login. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  const location = useLocation();
  if (status === "restoring") return <FullPageSpinner label="Restoring your session…" />;
  if (status === "signed-out") {
    const next = location.pathname + location.search;
    return <Navigate to={`/login?next=${encodeURIComponent(next)}`} replace />;
  }
  return <>{children}</>;
}

/** Renders its children for administrators only. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  if (!user?.is_admin) {
    return (
      <div className="page">
        <div className="notice notice-error" role="alert">
          This page is for administrators.
        </div>
      </div>
    );
  }
  return <>{children}</>;
}
