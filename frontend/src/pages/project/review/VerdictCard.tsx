import type { Ref } from "react";
import { useTranslation } from "react-i18next";

export type ReviewMode = "look" | "correct" | "reject";

interface Props {
  ref: Ref<HTMLTextAreaElement>;
  mode: ReviewMode;
  onMode: (m: ReviewMode) => void;
  overall: string;
  onOverall: (s: string) => void;
  busy: boolean;
  onApprove: () => void;
  onReject: () => void;
}

/** The overall comment (required to reject without question comments) and the three verdicts. */
export function VerdictCard({ ref, mode, onMode, overall, onOverall, busy, onApprove, onReject }: Props) {
  const { t } = useTranslation();
  const rejecting = mode === "reject";
  return (
    <div className={rejecting ? "card verdict-card rejecting" : "card verdict-card"}>
      <label htmlFor="review-comment" className="verdict-label">
        {rejecting ? t("review.whyRejected") : t("review.commentOptional")}
      </label>
      <textarea
        id="review-comment"
        ref={ref}
        rows={rejecting ? 3 : 2}
        value={overall}
        onChange={(e) => onOverall(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            if (rejecting) onReject();
            else onApprove();
          } else if (e.key === "Escape") {
            e.preventDefault();
            e.currentTarget.blur();
            if (!overall.trim()) onMode("look");
          }
        }}
      />
      <div className="verdicts">
        <button type="button" className="btn verdict-approve" disabled={busy} onClick={onApprove}>
          <kbd className="kbd">A</kbd> {t("review.approve")}
        </button>
        <button type="button" className="btn verdict-correct" disabled={busy} onClick={() => onMode("correct")}>
          <kbd className="kbd">C</kbd> {t("review.correct")}
        </button>
        <button type="button" className="btn verdict-reject" disabled={busy} onClick={onReject}>
          <kbd className="kbd">R</kbd> {t("review.reject")}{rejecting && <kbd className="kbd">Ctrl+Enter</kbd>}
        </button>
      </div>
    </div>
  );
}
