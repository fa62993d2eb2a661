import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import type { TFunction } from "i18next";
import type { FlagCategory } from "../../../api/workflowTypes";
import { useTranslation } from "react-i18next";

/** The flag categories in the order digits 1–4 pick them. */
export const FLAG_CATEGORIES: FlagCategory[] = ["broken_media", "unsafe_content", "wrong_modality", "other"];

/** A flag category's name in the active language. */
export function flagCategoryLabel(t: TFunction, c: FlagCategory): string {
  const labels: Record<FlagCategory, string> = {
    broken_media: t("work.flagCategory.broken_media"),
    unsafe_content: t("work.flagCategory.unsafe_content"),
    wrong_modality: t("work.flagCategory.wrong_modality"),
    other: t("work.flagCategory.other"),
  };
  return labels[c];
}

interface Props {
  kind: "skip" | "flag";
  busy: boolean;
  onCancel: () => void;
  onSkip: (reason: string) => void;
  onFlag: (category: FlagCategory, reason: string) => void;
}

/**
 * Skip or flag the current item. Digits 1–4 pick a flag category (outside
 * the text box), Tab moves to the reason, Enter confirms, Esc cancels.
 */
export function ActionDialog({ kind, busy, onCancel, onSkip, onFlag }: Props) {
  const { t } = useTranslation();
  const [category, setCategory] = useState<FlagCategory>("broken_media");
  const [reason, setReason] = useState("");
  const input = useRef<HTMLInputElement>(null);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    (kind === "skip" ? input.current : form.current)?.focus();
  }, [kind]);
  const needsReason = kind === "flag" && category === "other" && !reason.trim();

  function confirm(e?: FormEvent) {
    e?.preventDefault();
    if (busy || needsReason) return;
    if (kind === "skip") onSkip(reason.trim());
    else onFlag(category, reason.trim());
  }

  function onKeyDown(e: KeyboardEvent) {
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      onCancel();
    } else if (kind === "flag" && e.target !== input.current && /^[1-4]$/.test(e.key)) {
      e.preventDefault();
      setCategory(FLAG_CATEGORIES[Number(e.key) - 1]);
    } else if (e.key === "Enter" && e.target === form.current) {
      confirm(e);
    }
  }

  return (
    <div className="work-dialog-backdrop" onMouseDown={onCancel}>
      <form
        ref={form}
        tabIndex={-1}
        className="work-dialog card"
        role="dialog"
        aria-modal="true"
        aria-labelledby="work-dialog-title"
        onSubmit={confirm}
        onKeyDown={onKeyDown}
        onMouseDown={(e) => e.stopPropagation()}
      >
        <h2 id="work-dialog-title" className="card-title">
          {kind === "skip" ? t("work.dialog.skipTitle") : t("work.dialog.flagTitle")}
        </h2>
        <p className="muted">
          {kind === "skip" ? t("work.dialog.skipBody") : t("work.dialog.flagBody")}
        </p>
        {kind === "flag" && (
          <div className="flag-cats" role="radiogroup" aria-label={t("work.dialog.whatIsWrong")}>
            {FLAG_CATEGORIES.map((c, i) => (
              <label key={c} className={category === c ? "flag-cat on" : "flag-cat"}>
                <input type="radio" name="flag-cat" checked={category === c} onChange={() => setCategory(c)} />
                <kbd className="kbd">{i + 1}</kbd> {flagCategoryLabel(t, c)}
              </label>
            ))}
          </div>
        )}
        <div className="field">
          <label htmlFor="work-dialog-reason">{kind === "skip" ? t("work.dialog.reasonOptional") : category === "other" ? t("work.dialog.whatIsWrongRequired") : t("work.dialog.detailsOptional")}</label>
          <input id="work-dialog-reason" ref={input} value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} autoComplete="off" />
        </div>
        <div className="work-dialog-actions">
          <button type="button" className="btn btn-ghost" onClick={onCancel}>
            {t("work.dialog.cancel")} <kbd className="kbd">Esc</kbd>
          </button>
          <button type="submit" className={kind === "flag" ? "btn btn-danger" : "btn btn-primary"} disabled={busy || needsReason}>
            {kind === "skip" ? t("work.skip") : t("work.flag")} <kbd className="kbd kbd-on-primary">Enter</kbd>
          </button>
        </div>
      </form>
    </div>
  );
}
