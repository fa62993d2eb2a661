import { useMemo, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, queryKeys, useApi, type ProjectDetail } from "../../../api";
import { setupKeys, useSetupApi, type SetupRequest } from "../../../api/setup";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { Spinner } from "../../../components/Spinner";
import { formatDate } from "../../../components/format";
import { SchemaEditor } from "../../projects/setup/SchemaEditor";
import { parseSchemaText, schemaProblems, schemaToText } from "../../projects/setup/schemaText";
import { useSetupCheck } from "../../projects/setup/useSetupCheck";

/** The task schema: its versions with the work made under each, and a new version from YAML or JSON. */
export function SchemaCard({ project }: { project: ProjectDetail }) {
  const [editing, setEditing] = useState(false);
  return (
    <section className="card stack" aria-label="Schema">
      <div className="row settings-head">
        <h2 className="card-title">Schema</h2>
        {!editing && (
          <button type="button" className="btn btn-sm" onClick={() => setEditing(true)}>
            {project.schema ? "Edit the schema" : "Set a schema"}
          </button>
        )}
      </div>
      <p>
        {project.template ? (
          <>
            From the template <code>{project.template}</code>
          </>
        ) : (
          "A schema of its own"
        )}
        {project.schema ? `, version ${project.schema_version}: ${project.schema.inputs.length} inputs, ${project.schema.questions.length} questions.` : ". No schema yet."}
      </p>
      {editing && <SchemaEdit project={project} onDone={() => setEditing(false)} />}
      <SchemaVersions project={project} />
    </section>
  );
}

function SchemaVersions({ project }: { project: ProjectDetail }) {
  const setup = useSetupApi();
  const api = useApi();
  const versions = useQuery({ queryKey: [...setupKeys.schemaVersions(project.id), project.schema_version], queryFn: () => setup.schemaVersions(project.id) });
  const members = useQuery({ queryKey: queryKeys.members(project.id), queryFn: () => api.projects.members(project.id) });
  if (versions.isPending) return <Spinner label="Loading schema versions…" />;
  if (versions.isError) return <ErrorMessage error={versions.error} title="Could not load the schema versions." />;
  if (versions.data.length === 0) return null;
  const name = (id: string) => members.data?.find((m) => m.user_id === id)?.name ?? id;
  return (
    <table className="table" aria-label="Schema versions">
      <thead>
        <tr>
          <th scope="col">Version</th>
          <th scope="col">Created</th>
          <th scope="col">By</th>
          <th scope="col" className="num-col" title="Labels, reviews and adjudications submitted with this version">
            Submitted
          </th>
          <th scope="col" className="num-col">
            Claimed
          </th>
        </tr>
      </thead>
      <tbody>
        {versions.data.map((v) => (
          <tr key={v.version} data-version={v.version}>
            <td>
              v{v.version} {v.version === project.schema_version && <span className="badge">current</span>}
            </td>
            <td className="nowrap">{formatDate(v.created_at)}</td>
            <td>{name(v.created_by)}</td>
            <td className="num-col">{v.submitted}</td>
            <td className="num-col">{v.assignments}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function SchemaEdit({ project, onDone }: { project: ProjectDetail; onDone: () => void }) {
  const setup = useSetupApi();
  const qc = useQueryClient();
  const [text, setText] = useState(() => (project.schema ? schemaToText(project.schema, project.forms) : ""));
  const parsed = useMemo(() => parseSchemaText(text), [text]);
  const body = parsed.ok ? { schema: parsed.setup.schema, ...(parsed.setup.forms ? { forms: parsed.setup.forms as SetupRequest["forms"] } : {}) } : null;
  const check = useSetupCheck(body && { ...body, workflow: project.workflow });
  const save = useMutation({
    mutationFn: () => setup.patch(project.id, body!),
    onSuccess: (p) => {
      qc.setQueryData(queryKeys.project(project.id), p);
      void qc.invalidateQueries({ queryKey: queryKeys.project(project.id) });
      onDone();
    },
  });
  const serverErrors = { ...(check.verdict && !check.verdict.valid ? check.verdict.errors : {}), ...(save.error instanceof ApiError ? save.error.fieldErrors() : {}) };
  const problems = schemaProblems(serverErrors);
  const policyProblems = Object.entries(serverErrors).filter(([k]) => k.startsWith("workflow"));
  const ok = parsed.ok && !!check.verdict?.valid && !check.checking;
  return (
    <div className="stack settings-schema-edit">
      <p className="muted">Saving a changed schema makes a new version. Annotations keep the version they were made with; new work uses the new one.</p>
      <SchemaEditor text={text} onText={setText} parsed={parsed} problems={problems} checking={check.checking} valid={ok} />
      {policyProblems.length > 0 && (
        <div className="notice notice-error" role="alert">
          <span className="notice-title">The workflow does not fit this schema</span>
          {policyProblems.map(([k, m]) => (
            <span key={k}>
              <code>{k}</code> {m}
            </span>
          ))}
        </div>
      )}
      {save.error && !(save.error instanceof ApiError && save.error.status === 422) && <ErrorMessage error={save.error} />}
      <div className="row">
        <button type="button" className="btn btn-primary" disabled={!ok || save.isPending} onClick={() => save.mutate()}>
          {save.isPending ? "Saving…" : "Save the schema"}
        </button>
        <button type="button" className="btn" onClick={onDone}>
          Cancel
        </button>
      </div>
    </div>
  );
}
