import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiError, queryKeys, type ProjectDetail } from "../../../api";
import { useSetupApi } from "../../../api/setup";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { Field } from "../../../components/Field";
import { GuidelinesEditor } from "../../projects/setup/GuidelinesEditor";

/** The project's name, description and Markdown guidelines. */
export function GuidelinesCard({ project }: { project: ProjectDetail }) {
  const setup = useSetupApi();
  const qc = useQueryClient();
  const [name, setName] = useState(project.name);
  const [description, setDescription] = useState(project.description);
  const [guidelines, setGuidelines] = useState(project.guidelines);
  const [saved, setSaved] = useState(false);
  const changed = name !== project.name || description !== project.description || guidelines !== project.guidelines;
  const save = useMutation({
    mutationFn: () => setup.patch(project.id, { name: name.trim(), description, guidelines }),
    onSuccess: (p) => {
      qc.setQueryData(queryKeys.project(project.id), p);
      void qc.invalidateQueries({ queryKey: queryKeys.projects });
      setName(p.name);
      setDescription(p.description);
      setGuidelines(p.guidelines);
      setSaved(true);
    },
  });
  const errors = save.error instanceof ApiError ? save.error.fieldErrors() : {};
  const edit = <T,>(set: (v: T) => void) => (v: T) => {
    setSaved(false);
    set(v);
  };
  return (
    <section className="card stack" aria-label="Project and guidelines">
      <h2 className="card-title">Project and guidelines</h2>
      <Field label="Name" required maxLength={200} value={name} error={errors.name} onChange={(e) => edit(setName)(e.target.value)} />
      <div className="field">
        <label htmlFor="settings-description">Description</label>
        <textarea id="settings-description" rows={2} value={description} onChange={(e) => edit(setDescription)(e.target.value)} />
      </div>
      <GuidelinesEditor value={guidelines} onChange={edit(setGuidelines)} error={errors.guidelines} />
      {save.error && Object.keys(errors).length === 0 && <ErrorMessage error={save.error} />}
      <div className="row">
        <button type="button" className="btn btn-primary" disabled={!changed || !name.trim() || save.isPending} onClick={() => save.mutate()}>
          {save.isPending ? "Saving…" : "Save"}
        </button>
        {saved && !changed && (
          <span className="settings-saved" role="status">
            Saved.
          </span>
        )}
      </div>
    </section>
  );
}
