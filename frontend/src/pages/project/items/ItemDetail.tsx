import { useMemo } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router-dom";
import { useWorkflowApi, workflowKeys } from "../../../api/workflow";
import type { GroundTruthRevision, ItemDetailResponse, ItemRecord, Prediction, WorkRecord } from "../../../api/workflowTypes";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { Spinner } from "../../../components/Spinner";
import { formatDateTime } from "../../../components/format";
import { CandidatesView } from "../../../form/inputs/CandidatesView";
import { InputValue, JsonView } from "../../../form/inputs/InputValue";
import type { AnswerValue, Answers, Question, Schema } from "../../../api";
import { MediaBaseContext } from "../../../media/resolve";
import { PROJECT_MEDIA_BASE } from "../work/mediaBase";
import { STAGE_LABEL } from "../overview/StageBar";
import { answerKey, answerText, questionName } from "../review/answerText";
import "../../../form/form.css";
import "../../../media/media.css";
import { unitName } from "../../../components/unitName";

export const PROVENANCE: Record<string, string> = {
  unanimous: "Unanimous",
  majority: "Majority",
  single: "Single label",
  adjudicated: "Adjudicated",
  rule: "Rule",
  constructed: "Constructed",
};
const REVIEW: Record<string, string> = { approved: "approved", corrected: "corrected", rejected: "rejected", disputed: "disputed", pending: "review pending" };
const VERDICT: Record<string, string> = { approve: "Approved", correct: "Corrected", reject: "Rejected", disputed: "Disputed" };
const CRITERION: Record<string, string> = { pending: "Pending", valid: "Valid", too_vague: "Too vague", too_specific: "Too specific" };

type Names = Map<string, string>;

/** "1m 05s" from milliseconds. */
export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, "0")}s`;
}

/** For each label, the per-question comments its reviews made: label id → question key → comments. */
export function commentsByLabel(reviews: WorkRecord[], names: Names): Map<string, Map<string, string[]>> {
  const out = new Map<string, Map<string, string[]>>();
  for (const r of reviews) {
    if (!r.target_id || !r.comments) continue;
    const per = out.get(r.target_id) ?? new Map<string, string[]>();
    for (const [key, text] of Object.entries(r.comments)) {
      if (!text) continue;
      const who = names.get(r.user_id);
      per.set(key, [...(per.get(key) ?? []), who ? `${who}: ${text}` : text]);
    }
    out.set(r.target_id, per);
  }
  return out;
}

/**
 * One item as a lead sees it (GET /items/:iid): its inputs in the media
 * viewers, every label and review with their comments, model predictions,
 * criteria and each ground-truth revision with its provenance.
 */
export function ItemDetailView({ pid, iid, schema, names, onBack }: { pid: string; iid: string; schema: Schema | null | undefined; names: Names; onBack: () => void }) {
  const api = useWorkflowApi();
  const q = useQuery({ queryKey: workflowKeys.item(pid, iid), queryFn: () => api.item(pid, iid) });
  return (
    <div className="item-page" data-testid="item-detail">
      <div className="item-page-nav">
        <button type="button" className="btn btn-sm" onClick={onBack}>
          ← All items
        </button>
      </div>
      {q.isPending && <Spinner label="Loading the item…" />}
      <ErrorMessage error={q.error} title="Could not load this item." />
      {q.data && <ItemDetailBody data={q.data} schema={schema} names={names} />}
    </div>
  );
}

type Family = NonNullable<ItemDetailResponse["family"]>;

/** A D3-Omni seed and its perturbed negatives: which dimensions each negative flips, and how. */
function FamilyPanel({ family: f, current }: { family: Family; current: string }) {
  const negatives = f.members.filter((m) => !m.is_seed).length;
  return (
    <section className="card" aria-label="Seed family">
      <h3 className="card-title">Seed family</h3>
      <p className="muted" data-testid="family-summary">
        Seed <code>{f.seed_id}</code>: {f.members.length - negatives} seed, {negatives} perturbed {negatives === 1 ? "negative" : "negatives"}
        {f.truncated ? " (the first 200 listed)" : ""}.
      </p>
      <table className="table detail-table" aria-label="Items of the seed family">
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col">Role</th>
            <th scope="col">Flipped dimensions</th>
            <th scope="col">Operator</th>
            <th scope="col">Stage</th>
          </tr>
        </thead>
        <tbody>
          {f.members.map((m) => (
            <tr key={m.id} data-member={m.external_id} aria-current={m.id === current ? "true" : undefined}>
              <td>
                {m.id === current ? (
                  <code>{m.external_id}</code>
                ) : (
                  <Link to={`?item=${encodeURIComponent(m.id)}`}>
                    <code>{m.external_id}</code>
                  </Link>
                )}
              </td>
              <td>{m.is_seed ? "Seed" : "Negative"}</td>
              <td>{m.flip_set.length ? m.flip_set.join(", ") : "—"}</td>
              <td>{m.operator || "—"}</td>
              <td>{STAGE_LABEL[m.stage] ?? m.stage}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function ItemDetailBody({ data, schema, names }: { data: ItemDetailResponse; schema: Schema | null | undefined; names: Names }) {
  const { item, ground_truth_history: history, criteria, predictions, family } = data;
  const who = (id?: string) => (id ? names.get(id) ?? id : "—");
  return (
    <MediaBaseContext.Provider value={PROJECT_MEDIA_BASE}>
      <div className="card item-head-card">
        <div className="item-head">
          <h2 className="card-title">
            <code title={item.external_id}>{unitName(item.external_id)}</code>
          </h2>
          <span className={`stage-chip stage-${item.stage}`}>{STAGE_LABEL[item.stage] ?? item.stage}</span>
          {item.spot_check && <span className="stage-chip">spot check</span>}
          {item.language && (
            <span className="stage-chip" title="Language" data-language={item.language}>
              {item.language}
            </span>
          )}
          {item.ground_truth && (
            <span className={`prov-chip prov-${item.ground_truth.provenance.kind}`} data-provenance={item.ground_truth.provenance.kind}>
              {PROVENANCE[item.ground_truth.provenance.kind] ?? item.ground_truth.provenance.kind}
            </span>
          )}
          <span className="muted item-dates">
            Imported {formatDateTime(item.created_at)}
            {item.updated_at && item.updated_at !== item.created_at && ` · updated ${formatDateTime(item.updated_at)}`}
          </span>
        </div>
        {item.parent_id && (
          <p className="muted">
            Made from a criterion of item <code>{item.parent_id}</code>.
          </p>
        )}
        {item.flag && (
          <div className="notice notice-warn" role="status">
            <strong>Flagged{item.flag.category ? ` (${String(item.flag.category).replace(/_/g, " ")})` : ""}.</strong> {item.flag.reason}
            {typeof item.flag.by === "string" && <span className="muted"> — {who(item.flag.by)}</span>}
          </div>
        )}
        {item.drop_reason && (
          <p className="rationale">
            <strong>Dropped:</strong> {item.drop_reason}
          </p>
        )}
      </div>

      <div className="item-detail-grid">
        <section className="card" aria-label="Inputs">
          <h3 className="card-title">Inputs</h3>
          <ItemInputs item={item} schema={schema} />
        </section>
        <div className="item-detail-side">
          {family && <FamilyPanel family={family} current={item.id} />}
          <section className="card" aria-label="Answers by question">
            <h3 className="card-title">Answers by question</h3>
            <AnswersGrid item={item} schema={schema} predictions={predictions} names={names} />
          </section>
          <section className="card" aria-label="Labels and reviews">
            <h3 className="card-title">Labels and reviews</h3>
            <WorkList item={item} schema={schema} names={names} />
          </section>
          <section className="card" aria-label="Ground truth history">
            <h3 className="card-title">Ground truth history</h3>
            <GroundTruthHistory history={history} schema={schema} names={names} />
          </section>
          {criteria.length > 0 && (
            <section className="card" aria-label="Criteria">
              <h3 className="card-title">Criteria</h3>
              <table className="table detail-table" aria-label="Criteria written for this item">
                <thead>
                  <tr>
                    <th>Criterion</th>
                    <th>Status</th>
                    <th>By</th>
                    <th>When</th>
                  </tr>
                </thead>
                <tbody>
                  {criteria.map((c) => (
                    <tr key={c.id}>
                      <td>{c.text}</td>
                      <td>
                        <span className={`crit-status crit-${c.status}`}>{CRITERION[c.status] ?? c.status}</span>
                      </td>
                      <td>{who(c.author_id)}</td>
                      <td className="muted">{formatDateTime(c.created_at)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          )}
          {predictions.length > 0 && (
            <p className="muted predictions-note">
              Model predictions: {predictions.map((p) => `${p.model} (${formatDateTime(p.created_at)})`).join(", ")}.
            </p>
          )}
        </div>
      </div>
    </MediaBaseContext.Provider>
  );
}

/** Every input of the schema (hidden ones marked), through the same viewers the annotators use; then meta. */
function ItemInputs({ item, schema }: { item: ItemRecord; schema: Schema | null | undefined }) {
  const known = new Set((schema?.inputs ?? []).map((i) => i.name));
  const extra = Object.keys(item.inputs ?? {}).filter((k) => !known.has(k));
  return (
    <div className="item-inputs-list">
      {(schema?.inputs ?? []).map((inp) => {
        const label = inp.label || inp.name;
        const v = item.inputs?.[inp.name];
        if (v == null && inp.optional) return null;
        return (
          <section key={inp.name} className="input-block" data-input={inp.name}>
            <header className="input-head">
              <h3>{label}</h3>
              <span className="type-chip">{inp.type.replace("_", " ")}</span>
              {inp.hidden && <span className="withheld-chip">Hidden from annotators</span>}
            </header>
            <div className="input-body">{inp.type === "candidates" ? <CandidatesView value={v} label={label} /> : <InputValue type={inp.type} value={v} label={label} />}</div>
          </section>
        );
      })}
      {extra.map((k) => (
        <section key={k} className="input-block" data-input={k}>
          <header className="input-head">
            <h3>{k}</h3>
            <span className="type-chip">not in the schema</span>
          </header>
          <JsonView value={item.inputs[k]} />
        </section>
      ))}
      {item.meta && Object.keys(item.meta).length > 0 && (
        <section className="input-block" data-input="meta">
          <header className="input-head">
            <h3>Meta</h3>
            <span className="withheld-chip">Leads only</span>
          </header>
          <JsonView value={item.meta} />
        </section>
      )}
    </div>
  );
}

/** Question by question: each label (with its reviews' comments), each model, the ground truth. */
function AnswersGrid({ item, schema, predictions, names }: { item: ItemRecord; schema: Schema | null | undefined; predictions: Prediction[]; names: Names }) {
  const qs: Question[] = schema?.questions ?? [];
  const labels = item.annotations.filter((a) => a.answers);
  const gt = item.ground_truth;
  const comments = useMemo(() => commentsByLabel(item.reviews, names), [item.reviews, names]);
  if (!qs.length) return <p className="muted">The project has no questions.</p>;
  const cell = (q: Question, v: AnswerValue | undefined) => {
    const g = gt?.answers[q.key];
    const off = g !== undefined && v !== undefined && answerKey(v) !== answerKey(g);
    return { text: answerText(q, v), off };
  };
  return (
    <div className="answers-scroll">
      <table className="table detail-table" aria-label="Answers by question">
        <thead>
          <tr>
            <th>Question</th>
            {labels.map((a, i) => (
              <th key={a.id}>
                {names.get(a.user_id) ?? `Label ${i + 1}`}
                {a.review_status && a.review_status !== "none" && <span className={`review-chip ${a.review_status}`}>{REVIEW[a.review_status] ?? a.review_status}</span>}
              </th>
            ))}
            {predictions.map((p) => (
              <th key={p.model} className="pred-col">
                Model {p.model}
              </th>
            ))}
            <th className="gt-col">Ground truth</th>
          </tr>
        </thead>
        <tbody>
          {qs.map((q) => (
            <tr key={q.key} data-question={q.key}>
              <td className="q-name" title={q.label}>
                {questionName(q)}
              </td>
              {labels.map((a) => {
                const c = cell(q, (a.corrected_answers ?? a.answers)?.[q.key]);
                const said = comments.get(a.id)?.get(q.key);
                return (
                  <td key={a.id} className={c.off ? "off" : undefined}>
                    {c.text}
                    {a.corrected_answers && answerKey(a.corrected_answers[q.key]) !== answerKey(a.answers?.[q.key]) && (
                      <span className="was"> (was {answerText(q, a.answers?.[q.key])})</span>
                    )}
                    {said?.map((t, i) => (
                      <span key={i} className="q-review-comment" data-testid="question-comment">
                        {t}
                      </span>
                    ))}
                  </td>
                );
              })}
              {predictions.map((p) => {
                const c = cell(q, p.answers?.[q.key]);
                return (
                  <td key={p.model} className={c.off ? "pred-col off" : "pred-col"}>
                    {c.text}
                  </td>
                );
              })}
              <td className="gt-cell">{gt ? answerText(q, gt.answers[q.key]) : "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Labels, reviews and other work, oldest first within each kind. */
function WorkList({ item, schema, names }: { item: ItemRecord; schema: Schema | null | undefined; names: Names }) {
  const qs = schema?.questions ?? [];
  const byKey = new Map(qs.map((q) => [q.key, q]));
  const labelIndex = new Map(item.annotations.map((a, i) => [a.id, i]));
  const labelName = (id?: string) => {
    const a = id ? item.annotations.find((x) => x.id === id) : undefined;
    return a ? names.get(a.user_id) ?? `label ${(labelIndex.get(a.id) ?? 0) + 1}` : "a label";
  };
  const work = [...item.annotations, ...item.reviews, ...(item.other_work ?? [])];
  if (!work.length) return <p className="muted">Nobody has worked on this item yet.</p>;
  return (
    <ul className="work-list">
      {work.map((w) => (
        <li key={w.id} className="work-entry" data-stage={w.stage} data-work={w.id}>
          <div className="work-entry-head">
            <strong>{names.get(w.user_id) ?? w.user_id}</strong>
            <span className="stage-chip">{w.stage}</span>
            <span className="muted">{w.status}</span>
            {w.stage === "label" && w.review_status && w.review_status !== "none" && (
              <span className={`review-chip ${w.review_status}`}>{REVIEW[w.review_status] ?? w.review_status}</span>
            )}
            {w.stage === "review" && (
              <span>
                {VERDICT[w.verdict ?? ""] ?? w.verdict ?? "—"} the label of {labelName(w.target_id)}
              </span>
            )}
            <span className="muted work-entry-meta">
              {w.submitted_at ? formatDateTime(w.submitted_at) : "not submitted"}
              {w.time_spent_ms > 0 && ` · ${duration(w.time_spent_ms)}`}
              {w.draft_source && ` · draft from ${w.draft_source}`}
            </span>
          </div>
          {w.comment && <p className="work-comment">{w.comment}</p>}
          {w.comments && Object.keys(w.comments).length > 0 && (
            <ul className="work-q-comments" aria-label="Comments per question">
              {Object.entries(w.comments).map(([k, text]) => (
                <li key={k}>
                  <span className="q-name">{byKey.get(k) ? questionName(byKey.get(k)!) : k}</span>: {text}
                </li>
              ))}
            </ul>
          )}
          {w.rationale && (
            <p className="rationale">
              <strong>Rationale:</strong> {w.rationale}
            </p>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Each revision with its provenance, then the answers of every revision side by side. */
function GroundTruthHistory({ history, schema, names }: { history: GroundTruthRevision[]; schema: Schema | null | undefined; names: Names }) {
  if (!history.length) return <p className="muted">No ground truth yet.</p>;
  const qs = schema?.questions ?? [];
  return (
    <>
      <table className="table detail-table" aria-label="Ground truth revisions">
        <thead>
          <tr>
            <th className="num-col">Rev.</th>
            <th>Provenance</th>
            <th>By</th>
            <th>Rationale</th>
            <th>When</th>
          </tr>
        </thead>
        <tbody>
          {history.map((h) => (
            <tr key={h.revision} data-revision={h.revision}>
              <td className="num-col">{h.revision}</td>
              <td>
                <span className={`prov-chip prov-${h.provenance}`}>{PROVENANCE[h.provenance] ?? h.provenance}</span>
              </td>
              <td>{h.decided_by ? names.get(h.decided_by) ?? h.decided_by : "—"}</td>
              <td>{h.rationale || "—"}</td>
              <td className="muted">{formatDateTime(h.created_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {history.length > 1 && qs.length > 0 && (
        <div className="labels-scroll compact">
          <table className="table detail-table" aria-label="Ground truth answers by revision">
            <thead>
              <tr>
                <th>Question</th>
                {history.map((h) => (
                  <th key={h.revision}>Rev. {h.revision}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {qs.map((q) => (
                <tr key={q.key}>
                  <td className="q-name">{questionName(q)}</td>
                  {history.map((h, i) => {
                    const v = (h.answers as Answers)[q.key];
                    const changed = i > 0 && answerKey(v) !== answerKey((history[i - 1].answers as Answers)[q.key]);
                    return (
                      <td key={h.revision} className={changed ? "changed" : undefined}>
                        {answerText(q, v)}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
