import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, queryKeys, useApi } from "../../../api";
import { PASS_METRICS, qualityKeys, useQualityApi } from "../../../api/quality";
import type { ProjectDetail } from "../../../api/workflowTypes";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { Field } from "../../../components/Field";
import { defaultRoundChoices, parseIds, roundRequest, type RoundChoices } from "./rule";

/** The questions a pass rule can name: those with a level of measurement. */
export function ratedQuestions(p: ProjectDetail) {
  return (p.schema?.questions ?? []).filter((q) => q.kind !== "text" && q.kind !== "criteria" && q.level !== "none");
}

/** The errors of a refused request by field, list entries (participants[2]) gathered under the list. */
function fieldErrors(err: unknown): Record<string, string> {
  if (!(err instanceof ApiError)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(err.fieldErrors())) {
    const key = k.replace(/\[\d+\]$/, "");
    out[key] = out[key] ? `${out[key]} ${v}` : v;
  }
  return out;
}

/** A new round: its items (a sample of the pool or chosen ones), who takes part and how they pass. */
export function RoundForm({ project }: { project: ProjectDetail }) {
  const core = useApi();
  const api = useQualityApi();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [c, setC] = useState<RoundChoices>(defaultRoundChoices);
  const set = <K extends keyof RoundChoices>(k: K, v: RoundChoices[K]) => setC((prev) => ({ ...prev, [k]: v }));
  const members = useQuery({ queryKey: queryKeys.members(project.id), queryFn: () => core.projects.members(project.id) });
  const annotators = (members.data ?? []).filter((m) => m.roles.includes("annotator"));
  const questions = ratedQuestions(project);
  const create = useMutation({
    mutationFn: () => api.createRound(project.id, roundRequest(c)),
    onSuccess: (round) => {
      void qc.invalidateQueries({ queryKey: qualityKeys.rounds(project.id) });
      navigate(encodeURIComponent(round.id));
    },
  });
  const errs = fieldErrors(create.error);
  const toggle = (k: "participants" | "questions", v: string, on: boolean) => set(k, on ? [...c[k], v] : c[k].filter((x) => x !== v));
  const shares = c.metric !== "alpha_with_peers";
  return (
    <form
      className="card form-card round-form"
      aria-label="New round"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <h2 className="card-title">New round</h2>
      <Field label="Name" value={c.name} onChange={(e) => set("name", e.target.value)} placeholder="Round 1: physical adherence" error={errs.name} />

      <fieldset className="round-fieldset">
        <legend>Items from the calibration pool</legend>
        <label>
          <input type="radio" name="mode" checked={c.mode === "sample"} onChange={() => set("mode", "sample")} /> A random sample
        </label>
        <label>
          <input type="radio" name="mode" checked={c.mode === "pick"} onChange={() => set("mode", "pick")} /> These items
        </label>
        {c.mode === "sample" ? (
          <Field label="How many items" type="number" min={1} value={c.sample} onChange={(e) => set("sample", e.target.value)} error={errs.sample} />
        ) : (
          <div className="field">
            <label htmlFor="round-ids">External ids</label>
            <textarea
              id="round-ids"
              rows={4}
              value={c.externalIds}
              onChange={(e) => set("externalIds", e.target.value)}
              placeholder={"clip-001\nclip-002"}
              aria-invalid={errs.external_ids ? true : undefined}
            />
            <small className="field-hint">One per line or separated by commas; {parseIds(c.externalIds).length} chosen.</small>
            {errs.external_ids && <small className="field-error">{errs.external_ids}</small>}
          </div>
        )}
      </fieldset>

      <fieldset className="round-fieldset">
        <legend>Participants</legend>
        {members.isError && <ErrorMessage error={members.error} title="Could not load the members." />}
        {members.data && annotators.length === 0 && <p className="muted">The project has no annotators yet; add them under Members.</p>}
        {annotators.map((m) => (
          <label key={m.user_id}>
            <input type="checkbox" checked={c.participants.includes(m.user_id)} onChange={(e) => toggle("participants", m.user_id, e.target.checked)} />{" "}
            {m.name} <span className="muted">{m.email}</span>
          </label>
        ))}
        {errs.participants && <small className="field-error">{errs.participants}</small>}
      </fieldset>

      <fieldset className="round-fieldset">
        <legend>Pass rule</legend>
        <div className="field">
          <label htmlFor="round-metric">Measure</label>
          <select id="round-metric" value={c.metric} onChange={(e) => set("metric", e.target.value as RoundChoices["metric"])}>
            {PASS_METRICS.map((m) => (
              <option key={m.value} value={m.value}>
                {m.label}
              </option>
            ))}
          </select>
          {errs["pass.metric"] && <small className="field-error">{errs["pass.metric"]}</small>}
        </div>
        <Field
          label="Threshold"
          type="number"
          step="0.01"
          min={shares ? 0 : -1}
          max={1}
          value={c.threshold}
          onChange={(e) => set("threshold", e.target.value)}
          hint={shares ? "A share from 0 to 1: 0.8 passes at 80 %." : "α from −1 to 1."}
          error={errs["pass.threshold"]}
        />
        <div className="round-questions" role="group" aria-label="Questions that count">
          <span className="muted">Questions that count (none chosen: all)</span>
          {questions.map((q) => (
            <label key={q.key}>
              <input type="checkbox" checked={c.questions.includes(q.key)} onChange={(e) => toggle("questions", q.key, e.target.checked)} />{" "}
              {q.short_label || q.label}
            </label>
          ))}
          {errs["pass.questions"] && <small className="field-error">{errs["pass.questions"]}</small>}
        </div>
      </fieldset>
      {create.isError && Object.keys(errs).length === 0 && <ErrorMessage error={create.error} title="Could not start the round." />}
      <button type="submit" className="btn btn-primary" disabled={create.isPending}>
        Start round
      </button>
    </form>
  );
}
