import { useMutation, useQueryClient } from "@tanstack/react-query";
import { queryKeys, useApi, type PersonalToken } from "../../api";
import { ErrorMessage } from "../../components/ErrorMessage";
import { formatDate, formatDateTime } from "../../components/format";

export function TokenTable({ tokens }: { tokens: PersonalToken[] }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: (t: PersonalToken) => api.tokens.revoke(t.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.tokens }),
  });

  return (
    <>
      <ErrorMessage error={revoke.error} />
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Token</th>
            <th scope="col">Scopes</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Expires</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((t) => (
            <tr key={t.id}>
              <td>{t.name}</td>
              <td>
                <code>{t.prefix}…</code>
              </td>
              <td>{(t.scopes ?? []).join(", ")}</td>
              <td>{formatDate(t.created_at)}</td>
              <td>{formatDateTime(t.last_used_at, "never")}</td>
              <td>{formatDate(t.expires_at, "never")}</td>
              <td className="cell-actions">
                <button
                  type="button"
                  className="btn btn-sm btn-danger-ghost"
                  disabled={revoke.isPending}
                  aria-label={`Revoke ${t.name}`}
                  onClick={() => {
                    if (window.confirm(`Revoke “${t.name}”? Scripts using it will stop working.`)) revoke.mutate(t);
                  }}
                >
                  Revoke
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
