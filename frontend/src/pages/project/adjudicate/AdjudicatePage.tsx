import { useEffect, useRef, useState } from "react";
import { ApiError } from "../../../api";
import { useWorkflowApi } from "../../../api/workflow";
import type { ProjectDetail } from "../../../api/workflowTypes";
import { AnnotationForm } from "../../../form/AnnotationForm";
import { InputsPane } from "../../../form/inputs/InputsPane";
import { validateAnswers } from "../../../form/answers";
import type { Answers, FieldProblem } from "../../../api";
import { MediaBaseContext } from "../../../media/resolve";
import { useProject } from "../useProject";
import { ProgressStats } from "../annotate/ProgressStats";
import { useStageProgress } from "../annotate/progress";
import { PROJECT_MEDIA_BASE } from "../annotate/mediaBase";
import { QueueEmpty, QueueError, QueueLoading, SubmitProblem } from "../annotate/QueueStates";
import { useHeartbeat } from "../annotate/useHeartbeat";
import { usePageKeys, type PageKey } from "../annotate/usePageKeys";
import { useWorkQueue } from "../annotate/useWorkQueue";
import { Elapsed, SaveIndicator, Stat, WorkBar } from "../annotate/WorkBar";
import { DecisionCard } from "./DecisionCard";
import { LabelsTable } from "./LabelsTable";
import { choicesFor, disagreementOf, initialPicks } from "./picks";
import "../annotate/work.css";
import "../review/review.css";
import "./adjudicate.css";

/** Adjudicate: every label per question, disagreements marked, pick or edit the final label. */
export function AdjudicatePage() {
  const project = useProject();
  return (
    <MediaBaseContext.Provider value={PROJECT_MEDIA_BASE}>
      <AdjudicateSession project={project} />
    </MediaBaseContext.Provider>
  );
}

function AdjudicateSession({ project }: { project: ProjectDetail }) {
  const api = useWorkflowApi();
  const q = useWorkQueue(project.id, "adjudicate");
  const aid = q.claim?.assignment.id ?? null;
  const leaseLost = useHeartbeat(api, aid);
  const progress = useStageProgress(project.id, "adjudicate", q.settled);
  const claim = q.claim;
  const schema = claim?.item.schema;
  const qs = schema?.questions ?? [];
  const labels = claim?.context.labels ?? [];
  const ds = claim?.context.disagreements;

  const [shownFor, setShownFor] = useState<string | null>(null);
  const [picks, setPicks] = useState<Answers>({});
  const [active, setActive] = useState(0);
  const [editing, setEditing] = useState(false);
  const [rationale, setRationale] = useState("");
  const [confidence, setConfidence] = useState<number | null>(null);
  const [category, setCategory] = useState("");
  const [errors, setErrors] = useState<Record<string, FieldProblem>>({});
  const [problem, setProblem] = useState<unknown>(null);
  const rationaleBox = useRef<HTMLTextAreaElement>(null);

  if (aid !== shownFor) {
    setShownFor(aid);
    const start = claim ? initialPicks(qs, labels, ds) : {};
    setPicks(start);
    const firstOpen = qs.findIndex((x) => start[x.key] === undefined);
    setActive(Math.max(0, firstOpen));
    setEditing(false);
    setRationale("");
    setConfidence(null);
    setCategory("");
    setErrors({});
    setProblem(null);
  }

  function pick(i: number) {
    const question = qs[active];
    const l = labels[i];
    if (!question || !l || l.answers[question.key] === undefined) return;
    setPicks((p) => ({ ...p, [question.key]: l.answers[question.key] }));
    setErrors(({ [question.key]: _gone, ...rest }) => rest);
    // Move on to the next question still without an answer.
    const next = qs.findIndex((x, j) => j > active && picks[x.key] === undefined && x.key !== question.key);
    if (next >= 0) setActive(next);
  }

  function nextDisagreement() {
    const n = qs.length;
    for (let d = 1; d <= n; d++) {
      const j = (active + d) % n;
      if (disagreementOf(qs[j].key, ds) || choicesFor(qs[j], labels).length > 1) return setActive(j);
    }
  }

  async function submit() {
    if (!schema || q.busy) return;
    const errs: Record<string, FieldProblem> = { ...validateAnswers(schema, picks) };
    if (!rationale.trim()) errs.rationale = { code: "required", message: "Say why this is the final answer." };
    setErrors(errs);
    if (Object.keys(errs).length) {
      const first = qs.findIndex((x) => errs[x.key]);
      if (first >= 0) setActive(first);
      else rationaleBox.current?.focus();
      return;
    }
    setProblem(null);
    try {
      await q.submit({ answers: picks, rationale: rationale.trim(), confidence: confidence ?? undefined, error_category: category || undefined });
    } catch (err) {
      if (err instanceof ApiError && err.code === "validation_failed") setErrors(err.fieldErrors() as unknown as Record<string, FieldProblem>);
      else setProblem(err);
    }
  }
  const submitRef = useRef(submit);
  submitRef.current = submit;

  // Ctrl+Enter submits from anywhere, the rationale box included.
  useEffect(() => {
    if (editing || q.status !== "ready") return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        void submitRef.current();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [editing, q.status]);

  const keys: PageKey[] = [
    { key: "j", run: () => setActive((i) => Math.min(qs.length - 1, i + 1)) },
    { key: "ArrowDown", run: () => setActive((i) => Math.min(qs.length - 1, i + 1)) },
    { key: "k", run: () => setActive((i) => Math.max(0, i - 1)) },
    { key: "ArrowUp", run: () => setActive((i) => Math.max(0, i - 1)) },
    { key: "n", run: nextDisagreement },
    { key: "e", run: () => setEditing(true) },
    { key: "r", run: () => requestAnimationFrame(() => rationaleBox.current?.focus()) },
    ...labels.slice(0, 9).map((_, i) => ({ key: String(i + 1), run: () => pick(i) })),
    ...[1, 2, 3, 4, 5].map((n) => ({ key: String(n), code: `Digit${n}`, shift: true, run: () => setConfidence((c) => (c === n ? null : n)) })),
  ];
  usePageKeys(keys, q.status === "ready" && !editing && !q.busy);

  const missing = qs.filter((x) => x.required && picks[x.key] === undefined).length;
  const stats = (
    <>
      <ProgressStats stage="adjudicate" progress={progress} held={q.held} />
      {claim && <Elapsed since={q.shownAt} />}
      {claim && <Stat label="Labels" value={labels.length} />}
    </>
  );
  const item = claim ? { external_id: claim.item.item.external_id || "", inputs: claim.item.item.inputs ?? {} } : null;
  return (
    <div className="work" data-stage="adjudicate" data-assignment={aid ?? ""} data-testid="work">
      <WorkBar stats={stats} status={<SaveIndicator state="idle" offline={q.offline} />} />
      {leaseLost && (
        <div className="notice notice-warn" role="alert">
          Your hold on this item has expired; another adjudicator may get it.
        </div>
      )}
      {!!problem && <SubmitProblem error={problem} onNext={q.reload} />}
      {q.status === "loading" && <QueueLoading />}
      {q.status === "error" && <QueueError error={q.error} onRetry={q.reload} />}
      {q.status === "empty" && <QueueEmpty stage="adjudicate" onRetry={q.reload} done={progress?.done_today ?? 0} />}
      {q.status === "ready" && schema && item && editing && (
        <div className="review-correct">
          <div className="review-mode-bar">
            <span>
              <strong>Editing the final label.</strong> Answer in the form, then use these answers.
            </span>
            <button type="button" className="btn btn-sm" onClick={() => setEditing(false)}>
              Back to the labels
            </button>
          </div>
          <AnnotationForm
            schema={schema}
            item={item}
            initialAnswers={picks}
            submitLabel="Use these answers"
            onSubmit={(a) => {
              setPicks(a);
              setErrors({});
              setEditing(false);
            }}
          />
        </div>
      )}
      {q.status === "ready" && schema && item && !editing && (
        <div className="adj-grid">
          <InputsPane schema={schema} item={item} focused={qs[active]} answers={picks} />
          <div className="review-side">
            <div className="card review-card">
              <header className="review-card-head">
                <h2 className="card-title">
                  {claim?.context.consensus?.agreed ? "Labels (in agreement)" : "Labels"}
                </h2>
                <span className="muted">j/k move · 1–{Math.min(9, labels.length)} pick · n next difference · e edit</span>
              </header>
              <LabelsTable
                questions={qs}
                labels={labels}
                disagreements={ds}
                picks={picks}
                errors={errors}
                active={active}
                onActive={setActive}
                onPick={(key, v) => {
                  setPicks((p) => ({ ...p, [key]: v }));
                  setErrors(({ [key]: _gone, ...rest }) => rest);
                }}
              />
            </div>
            <DecisionCard
              ref={rationaleBox}
              rationale={rationale}
              onRationale={(s) => {
                setRationale(s);
                if (errors.rationale) setErrors(({ rationale: _gone, ...rest }) => rest);
              }}
              confidence={confidence}
              onConfidence={setConfidence}
              category={category}
              onCategory={setCategory}
              error={errors.rationale?.message}
              busy={q.busy}
              missing={missing}
              onSubmit={() => void submit()}
            />
          </div>
        </div>
      )}
    </div>
  );
}
