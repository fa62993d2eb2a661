import { useState, type FormEvent } from "react";
import { Link, useLocation } from "react-router-dom";
import { useMutation } from "@tanstack/react-query";
import { ApiError, useApi } from "../../api";
import { NewPasswordField } from "../../components/NewPasswordField";
import { ErrorMessage } from "../../components/ErrorMessage";

/** The token of a reset link; it travels in the fragment, which browsers send nowhere. */
export function resetToken(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, "")).get("token") ?? "";
}

/** Sets a new password with a one-time link from an administrator. */
export function ResetPasswordPage() {
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
        <h1>Set a new password</h1>
        {reset.isSuccess ? (
          <div className="notice notice-success" role="status">
            Your password is set. <Link to="/login">Sign in</Link> with it.
          </div>
        ) : !token ? (
          <div className="notice notice-warn">This link has no token. Ask an administrator for a new one.</div>
        ) : (
          <form className="stack" onSubmit={submit} aria-label="Set a new password">
            {reset.error && Object.keys(fields).length === 0 && <ErrorMessage error={reset.error} />}
            <NewPasswordField label="New password" value={password} error={fields.new_password} onChange={(e) => setPassword(e.target.value)} />
            <button type="submit" className="btn btn-primary" disabled={reset.isPending}>
              {reset.isPending ? "Saving…" : "Set password"}
            </button>
          </form>
        )}
      </div>
    </div>
  );
}
