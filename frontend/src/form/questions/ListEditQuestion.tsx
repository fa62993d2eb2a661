import { useState, type KeyboardEvent } from "react";
import type { AnswerValue, FieldProblem, ListEdit, Question } from "../../api";
import type { QuestionProps } from "./types";

/** The list a list_edit question edits, read from the item's inputs; [] when absent. */
export function inputList(q: Question, inputs: Record<string, unknown> | undefined): string[] {
  let v: unknown = q.list ? inputs?.[q.list] : undefined;
  if (q.list_key && v && typeof v === "object" && !Array.isArray(v)) v = (v as Record<string, unknown>)[q.list_key];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

/** The edits of an answer, or [] when it is not a list of edits. */
export function asEdits(v: AnswerValue | undefined): ListEdit[] {
  const list: unknown = v;
  return Array.isArray(list) ? list.filter((e): e is ListEdit => !!e && typeof e === "object" && "op" in e) : [];
}

/** Client check mirroring the server: every entry decided once, new text where needed, count in bounds. */
export function checkListEdit(q: Question, v: AnswerValue, listLength?: number): FieldProblem | null {
  const edits = asEdits(v);
  if (!Array.isArray(v) || edits.length !== (v as unknown[]).length) return { code: "invalid_type", message: "Expected a list of edits." };
  const seen = new Set<number>();
  for (const e of edits) {
    if (e.op !== "add") {
      if (e.from === undefined || seen.has(e.from)) return { code: "duplicate_key", message: "Decide each entry once." };
      seen.add(e.from);
    }
    if ((e.op === "reword" || e.op === "add") && !e.text?.trim()) return { code: "too_short", message: `Give the new text (${e.op}).` };
  }
  if (listLength !== undefined && seen.size !== listLength) return { code: "too_few", message: `Decide every entry: ${seen.size} of ${listLength}.` };
  const kept = edits.filter((e) => e.op !== "drop").length;
  if (q.min !== undefined && kept < q.min) return { code: "too_few", message: `Keep at least ${q.min}.` };
  if (q.max !== undefined && kept > q.max) return { code: "too_many", message: `Keep at most ${q.max}.` };
  return null;
}

/**
 * Edits a list given as an input (a model-drafted checklist): keep, drop or reword each entry,
 * add new ones (Enter adds). The answer lists every entry's decision, then the added ones.
 */
export function ListEditQuestion({ q, value, onChange, inputs, sub, setSub }: QuestionProps) {
  const original = inputList(q, inputs);
  const edits = asEdits(value);
  const [draft, setDraft] = useState("");
  const decided = new Map(edits.filter((e) => e.op !== "add").map((e) => [e.from, e]));
  const added = edits.filter((e) => e.op === "add");
  const emit = (byIndex: Map<number | undefined, ListEdit>, adds: ListEdit[]) => {
    const next = [...original.map((_, i) => byIndex.get(i)).filter((e): e is ListEdit => !!e), ...adds];
    onChange(next.length ? (next as unknown as AnswerValue) : undefined);
  };
  const decide = (i: number, e: ListEdit) => emit(new Map(decided).set(i, e), added);
  function onAddKey(ev: KeyboardEvent<HTMLInputElement>) {
    if (ev.key !== "Enter" || ev.ctrlKey || ev.metaKey) return;
    ev.preventDefault();
    ev.stopPropagation();
    if (draft.trim()) {
      emit(decided, [...added, { op: "add", text: draft.trim() }]);
      setDraft("");
    }
  }
  const kept = edits.filter((e) => e.op !== "drop").length;
  return (
    <div className="answer-row">
      <ol className="criteria list-edit">
        {original.map((text, i) => {
          const e = decided.get(i);
          return (
            <li key={i} data-op={e?.op ?? "undecided"} className={i === sub ? "current" : undefined} onClick={() => setSub(i)}>
              <span style={e?.op === "drop" ? { textDecoration: "line-through" } : undefined}>{text}</span>
              {(["keep", "drop", "reword"] as const).map((op) => (
                <button key={op} type="button" className="link-btn" aria-pressed={e?.op === op}
                  onClick={() => decide(i, op === "reword" ? { op, from: i, text: e?.text ?? text } : { op, from: i })}>
                  {op}
                </button>
              ))}
              {e?.op === "reword" && (
                <input className="text-answer" data-reword={i} value={e.text ?? ""} aria-label={`${q.label}: new wording of entry ${i + 1}`}
                  onChange={(ev) => decide(i, { op: "reword", from: i, text: ev.target.value })} />
              )}
            </li>
          );
        })}
        {added.map((e, j) => (
          <li key={`add-${j}`} data-op="add">
            <span>{e.text}</span>
            <button type="button" className="link-btn" aria-label={`Remove added entry ${j + 1}`}
              onClick={() => emit(decided, added.filter((_, k) => k !== j))}>
              ×
            </button>
          </li>
        ))}
      </ol>
      <input data-edit className="text-answer" value={draft} placeholder="Add an entry and press Enter"
        aria-label={`${q.label}: new entry`} onChange={(ev) => setDraft(ev.target.value)} onKeyDown={onAddKey} />
      <p className="counter">
        {decided.size} of {original.length} decided · {kept} kept
        {q.min !== undefined || q.max !== undefined ? ` · ${q.min ?? 0}–${q.max ?? "∞"} expected` : ""}
      </p>
    </div>
  );
}
