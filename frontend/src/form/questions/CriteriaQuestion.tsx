import { useState, type KeyboardEvent } from "react";
import type { QuestionProps } from "./types";

/** A list of criteria written by the annotator: Enter adds, ↑ in an empty field edits the last one. */
export function CriteriaQuestion({ q, value, onChange }: QuestionProps) {
  const list = Array.isArray(value) ? value : [];
  const [draft, setDraft] = useState("");
  const set = (next: string[]) => onChange(next.length ? next : undefined);
  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === "Enter" && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      e.stopPropagation();
      if (draft.trim()) {
        set([...list, draft.trim()]);
        setDraft("");
      }
    } else if (e.key === "ArrowUp" && !draft && list.length) {
      e.preventDefault();
      setDraft(list[list.length - 1]);
      set(list.slice(0, -1));
    }
  }
  const full = q.max !== undefined && list.length >= q.max;
  return (
    <div className="answer-row">
      {list.length > 0 && (
        <ol className="criteria">
          {list.map((c, i) => (
            <li key={i}>
              <span>{c}</span>
              <button type="button" tabIndex={-1} className="link-btn" aria-label={`Remove criterion ${i + 1}`} onClick={() => set(list.filter((_, j) => j !== i))}>
                ×
              </button>
            </li>
          ))}
        </ol>
      )}
      {!full && (
        <input
          data-edit
          className="text-answer"
          value={draft}
          placeholder={q.placeholder || "Write a criterion and press Enter"}
          aria-label={`${q.label}: new criterion`}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
        />
      )}
      <p className="counter">
        {list.length} {list.length === 1 ? "criterion" : "criteria"}
        {q.min !== undefined || q.max !== undefined ? ` · ${q.min ?? 0}–${q.max ?? "∞"} expected` : ""}
        {q.max_length ? ` · up to ${q.max_length} characters each` : ""}
      </p>
    </div>
  );
}
