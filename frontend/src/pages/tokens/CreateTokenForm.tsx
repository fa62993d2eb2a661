import { useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { TOKEN_SCOPES, queryKeys, useApi, type CreatedPersonalToken, type TokenScope } from "../../api";
import { useCurrentUser } from "../../auth";
import { Field } from "../../components/Field";
import { ErrorMessage } from "../../components/ErrorMessage";

/** What each scope lets a token do. */
const SCOPE_HELP: Record<TokenScope, string> = {
  read: "read projects, items and results",
  annotate: "claim work and submit answers",
  manage: "create and change projects, members, imports and uploads",
  admin: "manage users (administrators only)",
};

const EXPIRY_CHOICES = [
  { label: "7 days", days: 7 },
  { label: "30 days", days: 30 },
  { label: "90 days", days: 90 },
  { label: "1 year", days: 365 },
  { label: "Never", days: 0 },
];

export function CreateTokenForm({ onCreated }: { onCreated: (t: CreatedPersonalToken) => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [days, setDays] = useState(90);
  const [scopes, setScopes] = useState<TokenScope[]>(["read"]);
  const user = useCurrentUser();
  const offered = TOKEN_SCOPES.filter((s) => s !== "admin" || user.is_admin);
  const create = useMutation({
    mutationFn: api.tokens.create,
    onSuccess: async (t) => {
      onCreated(t);
      setName("");
      await queryClient.invalidateQueries({ queryKey: queryKeys.tokens });
    },
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    create.mutate({ name: name.trim(), scopes, ...(days > 0 ? { expires_in_days: days } : {}) });
  }

  return (
    <form className="card form-card stack" onSubmit={submit} aria-label="New token">
      <h2 className="card-title">New token</h2>
      <ErrorMessage error={create.error} />
      <div className="row row-end">
        <Field
          className="grow"
          label="Name"
          name="token-name"
          required
          placeholder="e.g. import script on the GPU box"
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <div className="field">
          <label htmlFor="token-expiry">Expires</label>
          <select id="token-expiry" value={days} onChange={(e) => setDays(Number(e.target.value))}>
            {EXPIRY_CHOICES.map((c) => (
              <option key={c.days} value={c.days}>
                {c.label}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn btn-primary" disabled={create.isPending || scopes.length === 0}>
          {create.isPending ? "Creating…" : "Create token"}
        </button>
      </div>
      <fieldset className="scope-choices">
        <legend>Scopes: what the token may do</legend>
        {offered.map((s) => (
          <label key={s} className="checkbox">
            <input
              type="checkbox"
              checked={scopes.includes(s)}
              onChange={(e) => setScopes((cur) => (e.target.checked ? [...cur, s] : cur.filter((x) => x !== s)))}
            />{" "}
            <strong>{s}</strong> <span className="muted">{SCOPE_HELP[s]}</span>
          </label>
        ))}
      </fieldset>
    </form>
  );
}
