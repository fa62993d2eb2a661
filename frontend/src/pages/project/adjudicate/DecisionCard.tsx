import { forwardRef } from "react";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";

/** The error categories ("" for none) with their names in the active language. */
export const errorCategories = (t: TFunction) => [
  { key: "", label: t("adjudicate.category.none") },
  { key: "annotator_error", label: t("adjudicate.category.annotator_error") },
  { key: "guideline_ambiguity", label: t("adjudicate.category.guideline_ambiguity") },
  { key: "genuinely_ambiguous", label: t("adjudicate.category.genuinely_ambiguous") },
  { key: "media_problem", label: t("adjudicate.category.media_problem") },
  { key: "other", label: t("adjudicate.category.other") },
];

interface Props {
  rationale: string;
  onRationale: (s: string) => void;
  confidence: number | null;
  /** Confidence n pressed: chosen, or cleared when it was the one chosen. */
  onConfidence: (n: number) => void;
  category: string;
  onCategory: (s: string) => void;
  error?: string;
  busy: boolean;
  missing: number;
  onSubmit: () => void;
}

/** Rationale (required), confidence 1–5 and error category, and the submit button. */
export const DecisionCard = forwardRef<HTMLTextAreaElement, Props>(function DecisionCard(p, ref) {
  const { t } = useTranslation();
  return (
    <div className="card decision-card">
      <div className="field">
        <label htmlFor="adj-rationale">
          {t("adjudicate.rationale")} <span className="muted">{t("adjudicate.rationaleHelp")}</span> <kbd className="kbd">R</kbd>
        </label>
        <textarea
          id="adj-rationale"
          ref={ref}
          rows={3}
          value={p.rationale}
          aria-invalid={p.error ? true : undefined}
          onChange={(e) => p.onRationale(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Escape") {
              e.preventDefault();
              e.currentTarget.blur();
            }
          }}
        />
        {p.error && <small className="field-error">{p.error}</small>}
      </div>
      <div className="decision-row">
        <div className="field">
          <span className="field-label">
            {t("adjudicate.confidence")} <kbd className="kbd">Shift+1–5</kbd>
          </span>
          <div className="seg" role="radiogroup" aria-label={t("adjudicate.confidence")}>
            {[1, 2, 3, 4, 5].map((n) => (
              <button
                key={n}
                type="button"
                role="radio"
                aria-checked={p.confidence === n}
                className={p.confidence === n ? "seg-btn on" : "seg-btn"}
                onClick={() => p.onConfidence(n)}
              >
                {n}
              </button>
            ))}
          </div>
        </div>
        <div className="field">
          <label htmlFor="adj-category">{t("adjudicate.errorCategory")}</label>
          <select id="adj-category" value={p.category} onChange={(e) => p.onCategory(e.target.value)}>
            {errorCategories(t).map((c) => (
              <option key={c.key} value={c.key}>
                {c.label}
              </option>
            ))}
          </select>
        </div>
        <div className="decision-submit">
          {p.missing > 0 && <span className="missing">{t("adjudicate.withoutFinal", { count: p.missing })}</span>}
          <button type="button" className="btn btn-primary" disabled={p.busy} onClick={p.onSubmit}>
            {t("adjudicate.submitFinal")} <kbd className="kbd kbd-on-primary">Ctrl+Enter</kbd>
          </button>
        </div>
      </div>
    </div>
  );
});
