import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiError, queryKeys, type ProjectDetail } from "../../../api";
import { useSetupApi, type SetupRequest } from "../../../api/setup";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { FeasibilityNotice } from "../../projects/setup/FeasibilityNotice";
import { PolicyForm } from "../../projects/setup/PolicyForm";
import { asRequestPolicy, type PolicyDraft } from "../../projects/setup/policyFields";
import { useSetupCheck } from "../../projects/setup/useSetupCheck";

/** The workflow policy, checked against the project's schema as it is edited, saved with PATCH. */
export function PolicyCard({ project }: { project: ProjectDetail }) {
  const setup = useSetupApi();
  const qc = useQueryClient();
  const [draft, setDraft] = useState<PolicyDraft>(project.workflow);
  const [saved, setSaved] = useState(false);
  const changed = JSON.stringify(draft) !== JSON.stringify(project.workflow);
  const req: SetupRequest | null =
    changed && project.schema ? { schema: project.schema, forms: (project.forms ?? undefined) as SetupRequest["forms"], workflow: asRequestPolicy(draft) } : null;
  const check = useSetupCheck(req);
  const save = useMutation({
    mutationFn: () => setup.patch(project.id, { workflow: asRequestPolicy(draft) }),
    onSuccess: (p) => {
      qc.setQueryData(queryKeys.project(project.id), p);
      void qc.invalidateQueries({ queryKey: queryKeys.project(project.id) });
      setDraft(p.workflow);
      setSaved(true);
    },
  });
  const errors = { ...(check.verdict && !check.verdict.valid ? check.verdict.errors : {}), ...(save.error instanceof ApiError ? save.error.fieldErrors() : {}) };
  const invalid = !!req && (check.checking || !check.verdict?.valid);
  return (
    <section className="card stack" aria-label="Workflow policy">
      <h2 className="card-title">Workflow</h2>
      <FeasibilityNotice pid={project.id} quiet />
      <PolicyForm
        value={draft}
        onChange={(p) => {
          setSaved(false);
          setDraft(p);
        }}
        context={{ schema: project.schema, forms: project.forms }}
        errors={errors}
        disabled={save.isPending}
      />
      {save.error && !(save.error instanceof ApiError && save.error.status === 422) && <ErrorMessage error={save.error} />}
      <div className="row">
        <button type="button" className="btn btn-primary" disabled={!changed || invalid || save.isPending} onClick={() => save.mutate()}>
          {save.isPending ? "Saving…" : "Save workflow"}
        </button>
        <button type="button" className="btn" disabled={!changed} onClick={() => setDraft(project.workflow)}>
          Undo changes
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
