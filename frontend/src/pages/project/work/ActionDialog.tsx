import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import type { FlagCategory } from "../../../api/workflowTypes";

export const FLAG_CATEGORIES: { key: FlagCategory; label: string }[] = [
  { key: "broken_media", label: "Broken media" },
  { key: "unsafe_content", label: "Unsafe content" },
  { key: "wrong_modality", label: "Wrong modality" },
  { key: "other", label: "Other" },
];

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
      setCategory(FLAG_CATEGORIES[Number(e.key) - 1].key);
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
          {kind === "skip" ? "Skip this item" : "Flag this item for the lead"}
        </h2>
        <p className="muted">
          {kind === "skip"
            ? "It goes back to the queue for someone else. Your answers on it are discarded."
            : "It leaves the queue until the lead returns or drops it."}
        </p>
        {kind === "flag" && (
          <div className="flag-cats" role="radiogroup" aria-label="What is wrong">
            {FLAG_CATEGORIES.map((c, i) => (
              <label key={c.key} className={category === c.key ? "flag-cat on" : "flag-cat"}>
                <input type="radio" name="flag-cat" checked={category === c.key} onChange={() => setCategory(c.key)} />
                <kbd className="kbd">{i + 1}</kbd> {c.label}
              </label>
            ))}
          </div>
        )}
        <div className="field">
          <label htmlFor="work-dialog-reason">{kind === "skip" ? "Reason (optional)" : category === "other" ? "What is wrong (required)" : "Details (optional)"}</label>
          <input id="work-dialog-reason" ref={input} value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} autoComplete="off" />
        </div>
        <div className="work-dialog-actions">
          <button type="button" className="btn btn-ghost" onClick={onCancel}>
            Cancel <kbd className="kbd">Esc</kbd>
          </button>
          <button type="submit" className={kind === "flag" ? "btn btn-danger" : "btn btn-primary"} disabled={busy || needsReason}>
            {kind === "skip" ? "Skip" : "Flag"} <kbd className="kbd kbd-on-primary">Enter</kbd>
          </button>
        </div>
      </form>
    </div>
  );
}
