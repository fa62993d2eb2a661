import { useState, type FormEvent } from "react";
import { Link } from "react-router-dom";
import { useMutation } from "@tanstack/react-query";
import { ApiError, useApi } from "../../api";
import { useCurrentUser } from "../../auth";
import { PageHeader } from "../../components/PageHeader";
import { Field } from "../../components/Field";
import { NewPasswordField } from "../../components/NewPasswordField";
import { ErrorMessage } from "../../components/ErrorMessage";

/** The signed-in person's account: who they are, and a new password. */
export function AccountPage() {
  const user = useCurrentUser();
  return (
    <div className="page">
      <PageHeader title="My account" subtitle={`${user.name} · ${user.email}`} />
      <ChangePasswordForm />
      <div className="card">
        <h2 className="card-title">Access tokens</h2>
        <p>
          Scripts and the command line use <Link to="/settings/tokens">personal access tokens</Link>.
        </p>
      </div>
    </div>
  );
}

/** Changes the password with the current one; every other session ends. */
export function ChangePasswordForm() {
  const api = useApi();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [done, setDone] = useState(false);
  const change = useMutation({
    mutationFn: () => api.account.changePassword(current, next),
    onSuccess: () => {
      setCurrent("");
      setNext("");
      setDone(true);
    },
  });
  const fields = change.error instanceof ApiError ? change.error.fieldErrors() : {};

  function submit(e: FormEvent) {
    e.preventDefault();
    setDone(false);
    change.mutate();
  }

  return (
    <form className="card form-card stack" onSubmit={submit} aria-label="Change password">
      <h2 className="card-title">Change password</h2>
      {done && (
        <div className="notice notice-success" role="status">
          Your password is changed. You are signed out everywhere else.
        </div>
      )}
      {change.error && Object.keys(fields).length === 0 && <ErrorMessage error={change.error} />}
      <Field
        label="Current password"
        type="password"
        autoComplete="current-password"
        required
        value={current}
        error={fields.current_password}
        onChange={(e) => setCurrent(e.target.value)}
      />
      <NewPasswordField label="New password" value={next} error={fields.new_password} extra="A few unrelated words make a good one." onChange={(e) => setNext(e.target.value)} />
      <div>
        <button type="submit" className="btn btn-primary" disabled={change.isPending}>
          {change.isPending ? "Changing…" : "Change password"}
        </button>
      </div>
    </form>
  );
}
