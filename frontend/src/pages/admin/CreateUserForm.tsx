import { useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiError, queryKeys, useApi } from "../../api";
import { Field } from "../../components/Field";
import { NewPasswordField } from "../../components/NewPasswordField";
import { ErrorMessage } from "../../components/ErrorMessage";

const empty = { email: "", name: "", password: "", is_admin: false, can_create_projects: false };

export function CreateUserForm({ onDone }: { onDone: () => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [form, setForm] = useState(empty);
  const create = useMutation({
    mutationFn: api.users.create,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.users });
      onDone();
    },
  });
  const fields = create.error instanceof ApiError ? create.error.fieldErrors() : {};
  const set = (k: keyof typeof empty) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setForm((f) => ({ ...f, [k]: e.target.type === "checkbox" ? e.target.checked : e.target.value }));

  function submit(e: FormEvent) {
    e.preventDefault();
    create.mutate({ ...form, email: form.email.trim(), name: form.name.trim() });
  }

  return (
    <form className="card form-card stack" onSubmit={submit} aria-label="New user">
      <h2 className="card-title">New user</h2>
      <ErrorMessage error={create.error} />
      <div className="grid-2">
        <Field label="Name" name="name" required autoFocus value={form.name} error={fields.name} onChange={set("name")} />
        <Field label="Email" name="email" type="email" required value={form.email} error={fields.email} onChange={set("email")} />
      </div>
      <NewPasswordField
        label="Initial password"
        name="password"
        value={form.password}
        error={fields.password}
        onChange={set("password")}
        extra="Share it through a safe channel, or send a reset link instead."
      />
      <label className="check">
        <input type="checkbox" name="is_admin" checked={form.is_admin} onChange={set("is_admin")} />
        <span>Administrator (can create users and projects, sees every project)</span>
      </label>
      <label className="check">
        <input type="checkbox" name="can_create_projects" checked={form.can_create_projects || form.is_admin} disabled={form.is_admin} onChange={set("can_create_projects")} />
        <span>Can create projects (and leads the projects they create)</span>
      </label>
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create user"}
        </button>
        <button type="button" className="btn" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
