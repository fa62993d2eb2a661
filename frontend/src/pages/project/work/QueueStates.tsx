import { ApiError } from "../../../api";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { Spinner } from "../../../components/Spinner";
import { useTranslation } from "react-i18next";


export function QueueLoading() {
  const { t } = useTranslation();
  return (
    <div className="work-center">
      <Spinner label={t("work.loading")} />
    </div>
  );
}

export function QueueEmpty({ stage, done, onRetry }: { stage: string; done: number; onRetry: () => void }) {
  const { t } = useTranslation();
  const empty: Record<string, string> = {
    label: t("work.empty.label"),
    criteria: t("work.empty.criteria"),
    checklist: t("work.empty.checklist"),
    review: t("work.empty.review"),
    adjudicate: t("work.empty.adjudicate"),
    calibration: t("work.empty.calibration"),
  };
  return (
    <div className="work-center" data-testid="queue-empty">
      <div className="empty-state">
        <p className="empty-title">{t("work.caughtUp")}</p>
        <div className="empty-body">
          <p>{empty[stage] ?? t("work.empty.other")}</p>
          {done > 0 && <p className="muted">{t("work.doneToday", { count: done })}</p>}
          <button type="button" className="btn" onClick={onRetry}>
            {t("work.checkAgain")}
          </button>
        </div>
      </div>
    </div>
  );
}

export function QueueError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="work-center">
      <ErrorMessage error={error} title={t("work.nextFailed")} />
      <button type="button" className="btn" onClick={onRetry}>
        {t("work.tryAgain")}
      </button>
    </div>
  );
}


/** A submit (or skip, flag) the server refused for a reason other than the answers. */
export function SubmitProblem({ error, onNext }: { error: unknown; onNext: () => void }) {
  const { t } = useTranslation();
  const code = error instanceof ApiError ? error.code : "";
  const conflicts: Record<string, string> = { lease_lost: t("work.conflict.lease_lost"), not_found: t("work.conflict.not_found") };
  const text = conflicts[code];
  return (
    <div className="notice notice-error work-problem" role="alert">
      {text ? <span>{text}</span> : <ErrorMessage error={error} title={t("work.sendFailed")} />}
      {text && (
        <button type="button" className="btn btn-sm" onClick={onNext}>
          {t("work.goNext")}
        </button>
      )}
    </div>
  );
}
