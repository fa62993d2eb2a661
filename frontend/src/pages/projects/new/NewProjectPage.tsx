import { useMemo, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router-dom";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, queryKeys, useApi, type ProjectDetail, type Schema } from "../../../api";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { PageHeader } from "../../../components/PageHeader";
import { Spinner } from "../../../components/Spinner";
import { useTemplate } from "../../templates/api";
import { schemaProblems } from "../setup/schemaText";
import { useSetupCheck } from "../setup/useSetupCheck";
import { asRequestPolicy, type PolicyContext } from "../setup/policyFields";
import { emptyDraft, parseDraft, schemaPart, type Draft } from "./draft";
import { SchemaStep } from "./SchemaStep";
import { ProjectStep } from "./ProjectStep";
import { ItemsStep, MembersStep, ReadyStep } from "./LaterSteps";
import "../../templates/gallery.css";
import "../setup/setup.css";
import { unwrapParagraphs } from "../setup/unwrap";

export const STEPS = [
  { key: "schema", label: "Schema" },
  { key: "project", label: "Project and workflow" },
  { key: "members", label: "Members" },
  { key: "items", label: "Items" },
  { key: "ready", label: "Check and start" },
] as const;
type StepKey = (typeof STEPS)[number]["key"];

/**
 * /projects/new: a short wizard. Before the project exists the lead picks a
 * template or a schema of their own and sets the project and its policy, all
 * checked by the server as they type; then (?project=ID) adds members,
 * imports items and sees what the policy still needs.
 */
export function NewProjectPage() {
  const [params] = useSearchParams();
  const pid = params.get("project");
  return (
    <div className="page page-wide wizard">
      <PageHeader title="New project" subtitle="Pick a schema, set the workflow, add people and items. Everything can be changed later in the project's Settings." />
      {pid ? <AfterCreate pid={pid} step={(params.get("step") as StepKey) || "members"} /> : <BeforeCreate template={params.get("template") ?? ""} />}
    </div>
  );
}

function StepList({ at, created }: { at: StepKey; created?: string }) {
  const i = STEPS.findIndex((s) => s.key === at);
  return (
    <ol className="wizard-steps" aria-label="Steps">
      {STEPS.map((s, n) => (
        <li key={s.key} className={n === i ? "on" : n < i ? "done" : ""} aria-current={n === i ? "step" : undefined}>
          {created && n >= 2 ? (
            <Link to={`/projects/new?project=${encodeURIComponent(created)}&step=${s.key}`}>
              <span className="wizard-step-n">{n + 1}</span> {s.label}
            </Link>
          ) : (
            <span>
              <span className="wizard-step-n">{n + 1}</span> {s.label}
            </span>
          )}
        </li>
      ))}
    </ol>
  );
}

const formsMap = (forms: { key: string; schema: Schema }[] | undefined) => Object.fromEntries((forms ?? []).map((f) => [f.key, f.schema]));

function BeforeCreate({ template }: { template: string }) {
  const api = useApi();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [step, setStep] = useState<"schema" | "project">("schema");
  const [draft, setDraft] = useState<Draft>(() => emptyDraft(template));
  const update = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const parsed = useMemo(() => parseDraft(draft), [draft]);
  const tpl = useTemplate(draft.source === "template" ? draft.template : "");
  const part = schemaPart(draft, parsed);
  const name = draft.name.trim();
  const req = part && {
    ...part,
    ...(name ? { name } : {}),
    description: draft.description,
    guidelines: draft.guidelines,
    workflow: asRequestPolicy(draft.workflow),
  };
  const check = useSetupCheck(req);
  const create = useMutation({
    mutationFn: () => api.projects.create({ ...req!, name }),
    onSuccess: (p) => {
      // note: the answer carries the caller's roles as every later read does, so it seeds the project
      qc.setQueryData(queryKeys.project(p.id), p);
      void qc.invalidateQueries({ queryKey: queryKeys.projects, exact: true });
      navigate(`/projects/new?project=${encodeURIComponent(p.id)}&step=members`, { replace: true });
    },
  });
  const createErrors = create.error instanceof ApiError ? create.error.fieldErrors() : {};

  // Guidelines and name follow the template or file until the lead edits them.
  const tplData = draft.source === "template" && tpl.data?.id === draft.template ? tpl.data : null;
  // note: unwrapped, as the source's line breaks land mid-line in the wide guidelines box
  const sourceGuidelines = unwrapParagraphs(tplData ? (tplData.guidelines ?? "") : parsed?.ok ? (parsed.setup.guidelines ?? "") : "");
  const context: PolicyContext = tplData ? { schema: tplData.schema, forms: formsMap(tplData.forms) } : parsed?.ok ? parsed.setup : {};
  const problems = check.verdict && !check.verdict.valid ? schemaProblems(check.verdict.errors) : [];
  const schemaReady = draft.source === "template" ? !!draft.template : !!parsed?.ok && !!check.verdict && !check.checking && problems.length === 0;
  const ready = schemaReady && !!name && !!check.verdict?.valid && !check.checking;
  if (!draft.guidelinesEdited && draft.guidelines !== sourceGuidelines) update({ guidelines: sourceGuidelines });
  // The policy starts as the template's own (its paper's, e.g. Omni-Reward's criteria stage) until the lead edits it.
  const policyFrom = tplData?.id ?? "";
  if (!draft.workflowEdited && draft.workflowFrom !== policyFrom) update({ workflow: tplData?.workflow ?? {}, workflowFrom: policyFrom });

  return (
    <>
      <StepList at={step} />
      {step === "schema" ? (
        <SchemaStep draft={draft} update={update} parsed={parsed} verdict={check.verdict} checking={check.checking} />
      ) : (
        <>
          <p className="wizard-chosen">
            Schema: {draft.source === "template" ? <strong>{tplData?.name ?? draft.template}</strong> : <strong>your own ({(parsed?.ok && parsed.setup.schema.questions?.length) || 0} questions)</strong>}{" "}
            <button type="button" className="btn btn-sm btn-ghost" onClick={() => setStep("schema")}>
              Change
            </button>
          </p>
          <ProjectStep draft={draft} update={update} context={context} verdict={check.verdict} createErrors={createErrors} />
        </>
      )}
      {check.error && <ErrorMessage error={check.error} title="Could not check the setup." />}
      {create.error && Object.keys(createErrors).length === 0 && <ErrorMessage error={create.error} title="Could not create the project." />}
      <div className="wizard-actions">
        <Link className="btn btn-ghost" to="/projects">
          Cancel
        </Link>
        {step === "project" && (
          <button type="button" className="btn" onClick={() => setStep("schema")}>
            Back
          </button>
        )}
        {step === "schema" ? (
          <button
            type="button"
            className="btn btn-primary"
            disabled={!schemaReady}
            onClick={() => {
              if (!draft.name && tplData) update({ name: tplData.name });
              setStep("project");
            }}
          >
            Next: project and workflow
          </button>
        ) : (
          <button type="button" className="btn btn-primary" disabled={!ready || create.isPending} onClick={() => create.mutate()}>
            {create.isPending ? "Creating…" : check.checking ? "Checking…" : "Create project"}
          </button>
        )}
      </div>
    </>
  );
}

function AfterCreate({ pid, step }: { pid: string; step: StepKey }) {
  const api = useApi();
  const navigate = useNavigate();
  // note: seeded by the creation answer; read only when the wizard is opened on an existing project
  const project = useQuery({ queryKey: queryKeys.project(pid), queryFn: () => api.projects.get(pid), staleTime: 60_000 });
  if (project.isPending) return <Spinner label="Loading the project…" />;
  if (project.isError) return <ErrorMessage error={project.error} title="Could not open the project." />;
  const p: ProjectDetail = project.data;
  const order: StepKey[] = ["members", "items", "ready"];
  const at = order.includes(step) ? step : "members";
  const next = order[order.indexOf(at) + 1];
  const go = (s: StepKey) => navigate(`/projects/new?project=${encodeURIComponent(pid)}&step=${s}`);
  return (
    <>
      <StepList at={at} created={pid} />
      <div className="notice notice-success wizard-created" role="status">
        <span>
          Created <strong>{p.name}</strong>.
        </span>
      </div>
      {at === "members" && <MembersStep project={p} />}
      {at === "items" && <ItemsStep project={p} />}
      {at === "ready" && <ReadyStep project={p} />}
      <div className="wizard-actions">
        {at !== "members" && (
          <button type="button" className="btn" onClick={() => go(order[order.indexOf(at) - 1])}>
            Back
          </button>
        )}
        {next ? (
          <button type="button" className="btn btn-primary" onClick={() => go(next)}>
            Next: {STEPS.find((s) => s.key === next)!.label.toLowerCase()}
          </button>
        ) : (
          <Link className="btn btn-primary" to={`/projects/${encodeURIComponent(pid)}/overview`}>
            Open the project
          </Link>
        )}
      </div>
    </>
  );
}
