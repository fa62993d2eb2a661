import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { queryKeys, useApi, type PasswordResetLink, type User } from "../../api";
import { useCurrentUser } from "../../auth";
import { ErrorMessage } from "../../components/ErrorMessage";
import { formatDateTime } from "../../components/format";

/** An administrator's actions on one account: a password reset link, disable or enable. */
export function UserActions({ user }: { user: User }) {
  const api = useApi();
  const me = useCurrentUser();
  const queryClient = useQueryClient();
  const [link, setLink] = useState<PasswordResetLink | null>(null);
  const reset = useMutation({ mutationFn: () => api.users.passwordReset(user.id), onSuccess: setLink });
  const toggle = useMutation({
    mutationFn: () => (user.disabled ? api.users.enable(user.id) : api.users.disable(user.id)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.users }),
  });
  const url = link ? window.location.origin + link.path : "";

  return (
    <div className="stack">
      <div className="row">
        <button type="button" className="btn btn-sm" disabled={reset.isPending} onClick={() => reset.mutate()}>
          Reset password
        </button>
        {user.id !== me.id && (
          <button
            type="button"
            className={user.disabled ? "btn btn-sm" : "btn btn-sm btn-danger-ghost"}
            disabled={toggle.isPending}
            onClick={() => {
              if (user.disabled || window.confirm(`Disable ${user.email}? Their sessions and tokens stop at once.`)) toggle.mutate();
            }}
          >
            {user.disabled ? "Enable" : "Disable"}
          </button>
        )}
      </div>
      <ErrorMessage error={reset.error ?? toggle.error} />
      {link && (
        <div className="notice notice-success token-once" role="status">
          <span className="notice-title">One-time link for {user.email}</span>
          <span>Give it to them yourself; it works once, until {formatDateTime(link.expires_at)}.</span>
          <code className="token-value" aria-label={`Reset link for ${user.email}`}>
            {url}
          </code>
        </div>
      )}
    </div>
  );
}
