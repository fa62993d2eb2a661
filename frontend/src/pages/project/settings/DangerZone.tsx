import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiError, queryKeys, type ProjectDetail } from "../../../api";
import { useSetupApi } from "../../../api/setup";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { Field } from "../../../components/Field";

/** Archive or restore the project, or delete it after typing its name. */
export function DangerZone({ project }: { project: ProjectDetail }) {
  const setup = useSetupApi();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [confirm, setConfirm] = useState("");
  const archived = !!project.archived_at;
  const archive = useMutation({
    mutationFn: () => setup.archive(project.id, !archived),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: queryKeys.projects });
    },
  });
  const remove = useMutation({
    mutationFn: () => setup.remove(project.id, confirm),
    onSuccess: () => {
      qc.removeQueries({ queryKey: queryKeys.project(project.id) });
      void qc.invalidateQueries({ queryKey: queryKeys.projects });
      navigate("/projects", { replace: true });
    },
  });
  const removeErrors = remove.error instanceof ApiError ? remove.error.fieldErrors() : {};
  return (
    <section className="card stack danger-zone" aria-label="Archive or delete">
      <h2 className="card-title">Archive or delete</h2>
      <div className="danger-row">
        <div>
          <strong>{archived ? "Restore the project" : "Archive the project"}</strong>
          <p className="muted">
            {archived
              ? "The project is archived: it is off the project list and hands out no work. Restoring brings both back."
              : "Keeps everything, takes the project off the project list and stops handing out work. It can be restored here."}
          </p>
        </div>
        <button type="button" className="btn" disabled={archive.isPending} onClick={() => archive.mutate()}>
          {archived ? "Restore" : "Archive"}
        </button>
      </div>
      <ErrorMessage error={archive.error} />
      <form
        className="danger-row danger-delete"
        aria-label="Delete the project"
        onSubmit={(e) => {
          e.preventDefault();
          remove.mutate();
        }}
      >
        <div>
          <strong>Delete the project</strong>
          <p className="muted">Items, labels, reviews, ground truth, imports, media and releases are deleted for good; the audit trail keeps the deletion.</p>
        </div>
        <div className="danger-confirm">
          <Field
            label={`Type the project's name, ${project.name}, to confirm`}
            autoComplete="off"
            value={confirm}
            error={removeErrors.confirm}
            onChange={(e) => setConfirm(e.target.value)}
            className="grow"
          />
          <button type="submit" className="btn btn-danger" disabled={confirm !== project.name || remove.isPending}>
            {remove.isPending ? "Deleting…" : "Delete the project"}
          </button>
        </div>
      </form>
      {remove.error && !removeErrors.confirm && <ErrorMessage error={remove.error} />}
    </section>
  );
}
