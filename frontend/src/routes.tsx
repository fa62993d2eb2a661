import { Link, Navigate, Route, Routes } from "react-router-dom";
import { RequireAdmin, RequireAuth } from "./auth";
import { AppLayout } from "./layout/AppLayout";
import { LoginPage } from "./pages/login/LoginPage";
import { ProjectsPage } from "./pages/projects/ProjectsPage";
import { ProjectPage } from "./pages/project/ProjectPage";
import { NewProjectPage } from "./pages/projects/new/NewProjectPage";
import { projectTabs } from "./pages/project/tabs";
import { UsersPage } from "./pages/admin/UsersPage";
import { TokensPage } from "./pages/tokens/TokensPage";
import { TemplatesPage } from "./pages/templates/TemplatesPage";
import { AccountPage } from "./pages/account/AccountPage";
import { ResetPasswordPage } from "./pages/account/ResetPasswordPage";

/** Every client-side route; the server answers index.html for all of them. */
export function AppRoutes() {
  return (
    <Routes>
      <Route path="/login" element={<LoginPage />} />
      <Route path="/reset-password" element={<ResetPasswordPage />} />
      <Route
        element={
          <RequireAuth>
            <AppLayout />
          </RequireAuth>
        }
      >
        <Route index element={<Navigate to="/projects" replace />} />
        <Route path="/projects" element={<ProjectsPage />} />
        <Route path="/projects/new" element={<NewProjectPage />} />
        <Route path="/projects/:pid" element={<ProjectPage />}>
          <Route index element={<Navigate to="overview" replace />} />
          {projectTabs.map((t) => (
            <Route key={t.path} path={`${t.path}/*`} element={t.element} />
          ))}
          <Route path="*" element={<NotFound />} />
        </Route>
        <Route
          path="/admin/users"
          element={
            <RequireAdmin>
              <UsersPage />
            </RequireAdmin>
          }
        />
        <Route path="/settings/tokens" element={<TokensPage />} />
        <Route path="/account" element={<AccountPage />} />
        <Route path="/templates/*" element={<TemplatesPage />} />
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}

function NotFound() {
  return (
    <div className="page">
      <div className="empty-state">
        <p className="empty-title">Page not found</p>
        <p className="empty-body">
          <Link to="/projects">Go to your projects</Link>
        </p>
      </div>
    </div>
  );
}
