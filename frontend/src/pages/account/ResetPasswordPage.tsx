import { useState, type FormEvent } from "react";
import { Link, useLocation } from "react-router-dom";
import { useMutation } from "@tanstack/react-query";
import { ApiError, useApi } from "../../api";
import { NewPasswordField } from "../../components/NewPasswordField";
import { ErrorMessage } from "../../components/ErrorMessage";
import { useTranslation } from "react-i18next";

/** The token of a reset link; it travels in the fragment, which browsers send nowhere. */
export function resetToken(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, "")).get("token") ?? "";
}

/** Sets a new password with a one-time link from an administrator. */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const api = useApi();
  const token = resetToken(useLocation().hash);
  const [password, setPassword] = useState("");
  const reset = useMutation({ mutationFn: () => api.account.resetPassword(token, password) });
  const fields = reset.error instanceof ApiError ? reset.error.fieldErrors() : {};

  function submit(e: FormEvent) {
    e.preventDefault();
    reset.mutate();
  }

  return (
    <div className="login-screen">
      <div className="login-card card">
        <h1>{t("reset.title")}</h1>
        {reset.isSuccess ? (
          <div className="notice notice-success" role="status">
            {t("reset.doneBefore")}
            <Link to="/login">{t("reset.doneLink")}</Link>
            {t("reset.doneAfter")}
          </div>
        ) : !token ? (
          <div className="notice notice-warn">{t("reset.noToken")}</div>
        ) : (
          <form className="stack" onSubmit={submit} aria-label={t("reset.title")}>
            {reset.error && Object.keys(fields).length === 0 && <ErrorMessage error={reset.error} />}
            <NewPasswordField label={t("account.newPassword")} value={password} error={fields.new_password} onChange={(e) => setPassword(e.target.value)} />
            <button type="submit" className="btn btn-primary" disabled={reset.isPending}>
              {reset.isPending ? t("account.saving") : t("reset.setPassword")}
            </button>
          </form>
        )}
      </div>
    </div>
  );
}
