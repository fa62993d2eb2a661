import { useRef, useState } from "react";
import { ApiError } from "../../../api";
import { useWorkflowApi } from "../../../api/workflow";
import type { ProjectDetail, SubmitBody } from "../../../api/workflowTypes";
import { AnnotationForm } from "../../../form/AnnotationForm";
import { InputsPane } from "../../../form/inputs/InputsPane";
import type { AnswerErrors, Answers } from "../../../api";
import { MediaBaseContext } from "../../../media/resolve";
import { useProject } from "../useProject";
import { PROJECT_MEDIA_BASE } from "../annotate/mediaBase";
import { QueueEmpty, QueueError, QueueLoading, SubmitProblem } from "../annotate/QueueStates";
import { useHeartbeat } from "../annotate/useHeartbeat";
import { usePageKeys } from "../annotate/usePageKeys";
import { useWorkQueue } from "../annotate/useWorkQueue";
import { Elapsed, SaveIndicator, WorkBar } from "../annotate/WorkBar";
import { ProgressStats } from "../annotate/ProgressStats";
import { useStageProgress } from "../annotate/progress";
import { LabelAnswers, reviewComments } from "./LabelAnswers";
import "../annotate/work.css";
import "./review.css";

type Mode = "look" | "correct" | "reject";

/** Review: the item and the label under review side by side, verdicts on single keys. */
export function ReviewPage() {
  const project = useProject();
  return (
    <MediaBaseContext.Provider value={PROJECT_MEDIA_BASE}>
      <ReviewSession project={project} />
    </MediaBaseContext.Provider>
  );
}

function ReviewSession({ project }: { project: ProjectDetail }) {
  const api = useWorkflowApi();
  const q = useWorkQueue(project.id, "review");
  const aid = q.claim?.assignment.id ?? null;
  const leaseLost = useHeartbeat(api, aid);
  const progress = useStageProgress(project.id, "review", q.settled);
  const [mode, setMode] = useState<Mode>("look");
  const [active, setActive] = useState(0);
  const [editing, setEditing] = useState<string | null>(null);
  const [comments, setComments] = useState<Record<string, string>>({});
  const [overall, setOverall] = useState("");
  const [problem, setProblem] = useState<unknown>(null);
  const [fieldErrors, setFieldErrors] = useState<AnswerErrors | undefined>();
  const [shownFor, setShownFor] = useState<string | null>(null);
  const commentBox = useRef<HTMLTextAreaElement>(null);

  if (aid !== shownFor) {
    // A new label: start clean.
    setShownFor(aid);
    setMode("look");
    setActive(0);
    setEditing(null);
    setComments({});
    setOverall("");
    setProblem(null);
    setFieldErrors(undefined);
  }

  const claim = q.claim;
  const schema = claim?.item.schema;
  const qs = schema?.questions ?? [];
  const blind = !!claim?.context.blind;
  const label: Answers = claim?.context.label?.answers ?? {};

  async function send(body: SubmitBody) {
    setProblem(null);
    try {
      await q.submit(body);
    } catch (err) {
      const details = err instanceof ApiError && err.code === "validation_failed" ? ((err.details ?? {}) as AnswerErrors) : null;
      // Answer problems go on the form's questions; anything else (e.g. a comment on an unknown question) is shown as is.
      if (details && (blind || mode === "correct") && Object.keys(details).some((k) => qs.some((x) => x.key === k))) setFieldErrors(details);
      else setProblem(err);
    }
  }
  /** The overall note and the per-question comments, as the server stores them. */
  const notes = (): Pick<SubmitBody, "comment" | "comments"> => {
    const per = reviewComments(comments, qs);
    return { comment: overall.trim() || undefined, comments: Object.keys(per).length ? per : undefined };
  };
  const approve = () => void send({ verdict: "approve", ...notes() });
  const reject = () => {
    const n = notes();
    if (!n.comment && !n.comments) {
      setMode("reject");
      commentBox.current?.focus();
      return;
    }
    void send({ verdict: "reject", ...n });
  };

  usePageKeys(
    [
      { key: "a", run: approve },
      { key: "c", run: () => setMode("correct") },
      {
        key: "r",
        run: () => {
          setMode("reject");
          requestAnimationFrame(() => commentBox.current?.focus());
        },
      },
      { key: "j", run: () => setActive((i) => Math.min(qs.length - 1, i + 1)) },
      { key: "ArrowDown", run: () => setActive((i) => Math.min(qs.length - 1, i + 1)) },
      { key: "k", run: () => setActive((i) => Math.max(0, i - 1)) },
      { key: "ArrowUp", run: () => setActive((i) => Math.max(0, i - 1)) },
      { key: "m", run: () => qs[active] && setEditing(qs[active].key) },
    ],
    q.status === "ready" && !blind && mode !== "correct" && !q.busy,
  );

  const stats = (
    <>
      <ProgressStats stage="review" progress={progress} held={q.held} />
      {claim && <Elapsed since={q.shownAt} />}
    </>
  );
  return (
    <div className="work" data-stage="review" data-assignment={aid ?? ""} data-testid="work">
      <WorkBar stats={stats} status={<SaveIndicator state="idle" offline={q.offline} />} />
      {leaseLost && (
        <div className="notice notice-warn" role="alert">
          Your hold on this review has expired; another reviewer may get it.
        </div>
      )}
      {!!problem && <SubmitProblem error={problem} onNext={q.reload} />}
      {q.status === "loading" && <QueueLoading />}
      {q.status === "error" && <QueueError error={q.error} onRetry={q.reload} />}
      {q.status === "empty" && <QueueEmpty stage="review" onRetry={q.reload} done={progress?.done_today ?? 0} />}
      {q.status === "ready" && claim && schema && (blind || mode === "correct") && (
        <div className="review-correct">
          {!blind && (
            <div className="review-mode-bar">
              <span>
                <strong>Correcting the label.</strong> Change what is wrong, then submit the corrected answers.
              </span>
              <button type="button" className="btn btn-sm" onClick={() => setMode("look")}>
                Back to the label
              </button>
            </div>
          )}
          {blind && <p className="muted">Blind review: answer the item yourself; your answers are compared with the label.</p>}
          <AnnotationForm
            key={`${claim.assignment.id}-${mode}`}
            schema={schema}
            item={{ external_id: claim.item.item.external_id || "", inputs: claim.item.item.inputs ?? {} }}
            initialAnswers={blind ? claim.draft ?? {} : label}
            onSubmit={(answers) => void send(blind ? { answers } : { verdict: "correct", answers, ...notes() })}
            serverErrors={fieldErrors}
            submitLabel={blind ? "Submit review" : "Submit correction"}
          />
        </div>
      )}
      {q.status === "ready" && claim && schema && !blind && mode !== "correct" && (
        <div className="review-grid">
          <InputsPane schema={schema} item={{ external_id: claim.item.item.external_id || "", inputs: claim.item.item.inputs ?? {} }} focused={qs[active]} answers={label} />
          <div className="review-side">
            <div className="card review-card">
              <header className="review-card-head">
                <h2 className="card-title">Label under review</h2>
                <span className="muted">j/k move · m comment on a question</span>
              </header>
              <LabelAnswers
                questions={qs}
                answers={label}
                active={active}
                onActive={setActive}
                comments={comments}
                editing={editing}
                onEdit={setEditing}
                onComment={(k, text) => setComments((c) => ({ ...c, [k]: text }))}
              />
            </div>
            <div className={mode === "reject" ? "card verdict-card rejecting" : "card verdict-card"}>
              <label htmlFor="review-comment" className="verdict-label">
                {mode === "reject" ? "Why is this label rejected? (required)" : "Comment (optional)"}
              </label>
              <textarea
                id="review-comment"
                ref={commentBox}
                rows={mode === "reject" ? 3 : 2}
                value={overall}
                onChange={(e) => setOverall(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
                    e.preventDefault();
                    if (mode === "reject") reject();
                    else approve();
                  } else if (e.key === "Escape") {
                    e.preventDefault();
                    e.currentTarget.blur();
                    if (!overall.trim()) setMode("look");
                  }
                }}
              />
              <div className="verdicts">
                <button type="button" className="btn verdict-approve" disabled={q.busy} onClick={approve}>
                  <kbd className="kbd">A</kbd> Approve
                </button>
                <button type="button" className="btn verdict-correct" disabled={q.busy} onClick={() => setMode("correct")}>
                  <kbd className="kbd">C</kbd> Correct
                </button>
                <button type="button" className="btn verdict-reject" disabled={q.busy} onClick={reject}>
                  <kbd className="kbd">R</kbd> Reject{mode === "reject" && <kbd className="kbd">Ctrl+Enter</kbd>}
                </button>
              </div>
            </div>
          </div>
        </div>
      )}
    </div>
  );
}
