import { useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { queryKeys, useApi, type CreatedPersonalToken } from "../../api";
import { Field } from "../../components/Field";
import { ErrorMessage } from "../../components/ErrorMessage";

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
    create.mutate({ name: name.trim(), ...(days > 0 ? { expires_in_days: days } : {}) });
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
        <button type="submit" className="btn btn-primary" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create token"}
        </button>
      </div>
    </form>
  );
}
