import { useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiError, queryKeys, useApi } from "../../api";
import { Field } from "../../components/Field";
import { ErrorMessage } from "../../components/ErrorMessage";

/** Admin form for a new project; the list refreshes when it is created. */
export function CreateProjectForm({ onDone }: { onDone: () => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const create = useMutation({
    mutationFn: api.projects.create,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.projects });
      onDone();
    },
  });
  const fields = create.error instanceof ApiError ? create.error.fieldErrors() : {};

  function submit(e: FormEvent) {
    e.preventDefault();
    create.mutate({ name: name.trim(), description: description.trim() });
  }

  return (
    <form className="card form-card stack" onSubmit={submit} aria-label="New project">
      <h2 className="card-title">New project</h2>
      <ErrorMessage error={create.error} />
      <Field
        label="Name"
        name="name"
        required
        autoFocus
        maxLength={200}
        value={name}
        error={fields.name}
        onChange={(e) => setName(e.target.value)}
      />
      <div className="field">
        <label htmlFor="project-description">Description</label>
        <textarea
          id="project-description"
          name="description"
          rows={3}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
      </div>
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create project"}
        </button>
        <button type="button" className="btn" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
