import { ApiError } from "../../../api";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { Spinner } from "../../../components/Spinner";

const EMPTY_TEXT: Record<string, string> = {
  label: "There is nothing left for you to label right now.",
  criteria: "There are no items waiting for criteria.",
  checklist: "There are no checklists waiting to be refined.",
  review: "There are no labels waiting for your review.",
  adjudicate: "There are no items waiting for adjudication.",
  calibration: "You have labeled every item of your open calibration rounds.",
};

export function QueueLoading() {
  return (
    <div className="work-center">
      <Spinner label="Getting the next item…" />
    </div>
  );
}

export function QueueEmpty({ stage, done, onRetry }: { stage: string; done: number; onRetry: () => void }) {
  return (
    <div className="work-center" data-testid="queue-empty">
      <div className="empty-state">
        <p className="empty-title">All caught up</p>
        <div className="empty-body">
          <p>{EMPTY_TEXT[stage] ?? "Nothing is waiting."}</p>
          {done > 0 && <p className="muted">You finished {done} today in this stage.</p>}
          <button type="button" className="btn" onClick={onRetry}>
            Check again
          </button>
        </div>
      </div>
    </div>
  );
}

export function QueueError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <div className="work-center">
      <ErrorMessage error={error} title="Could not get the next item." />
      <button type="button" className="btn" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}

const CONFLICT_TEXT: Record<string, string> = {
  lease_lost: "Your hold on this item expired and someone else may have it now. Your answers are kept in this browser.",
  not_found: "This item is no longer assigned to you.",
};

/** A submit (or skip, flag) the server refused for a reason other than the answers. */
export function SubmitProblem({ error, onNext }: { error: unknown; onNext: () => void }) {
  const code = error instanceof ApiError ? error.code : "";
  const text = CONFLICT_TEXT[code];
  return (
    <div className="notice notice-error work-problem" role="alert">
      {text ? <span>{text}</span> : <ErrorMessage error={error} title="Could not send this." />}
      {text && (
        <button type="button" className="btn btn-sm" onClick={onNext}>
          Go to the next item
        </button>
      )}
    </div>
  );
}
