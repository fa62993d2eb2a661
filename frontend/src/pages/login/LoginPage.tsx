import { Navigate, useNavigate, useSearchParams } from "react-router-dom";
import { useAuth } from "../../auth";
import { FullPageSpinner } from "../../components/Spinner";
import { LoginForm } from "./LoginForm";
import { useTranslation } from "react-i18next";

/** Only same-app paths are followed after sign-in, never another origin. */
function safeNext(next: string | null): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/login")) return "/projects";
  return next;
}

export function LoginPage() {
  const { t } = useTranslation();
  const { status, login, restoreError } = useAuth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNext(params.get("next"));

  if (status === "restoring") return <FullPageSpinner label={t("login.restoring")} />;
  if (status === "signed-in") return <Navigate to={next} replace />;

  return (
    <div className="login-screen">
      <div className="login-card card">
        <div className="login-brand">
          <img src="/favicon.svg" alt="" width={40} height={40} />
          <div>
            <h1>Arbiter</h1>
            <p className="muted">{t("login.tagline")}</p>
          </div>
        </div>
        {restoreError && <div className="notice notice-warn">{restoreError}</div>}
        <LoginForm
          onSubmit={async (email, password) => {
            await login(email, password);
            navigate(next, { replace: true });
          }}
        />
      </div>
    </div>
  );
}
