import { useState, type KeyboardEvent } from "react";
import i18n from "../../i18n";
import type { AnswerValue, FieldProblem, ListEdit, Question } from "../../api";
import type { QuestionProps } from "./types";
import { useTranslation } from "react-i18next";

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
  const t = (key: string, values?: Record<string, unknown>) => i18n.t(key, values ?? {});
  if (!Array.isArray(v) || edits.length !== (v as unknown[]).length) return { code: "invalid_type", message: t("question.check.edits") };
  const seen = new Set<number>();
  for (const e of edits) {
    if (e.op !== "add") {
      if (e.from === undefined || seen.has(e.from)) return { code: "duplicate_key", message: t("question.check.once") };
      seen.add(e.from);
    }
    if ((e.op === "reword" || e.op === "add") && !e.text?.trim()) return { code: "too_short", message: t("question.check.newText", { op: t(`question.op.${e.op}`) }) };
  }
  if (listLength !== undefined && seen.size !== listLength) return { code: "too_few", message: t("question.check.every", { seen: seen.size, total: listLength }) };
  const kept = edits.filter((e) => e.op !== "drop").length;
  if (q.min !== undefined && kept < q.min) return { code: "too_few", message: t("question.check.keepAtLeast", { min: q.min }) };
  if (q.max !== undefined && kept > q.max) return { code: "too_many", message: t("question.check.keepAtMost", { max: q.max }) };
  return null;
}

/** What can be done with an entry of the list. */
const OPS = ["keep", "drop", "reword"] as const;

/**
 * Edits a list given as an input (a model-drafted checklist): keep, drop or reword each entry,
 * add new ones (Enter adds). The answer lists every entry's decision, then the added ones.
 */
export function ListEditQuestion({ q, value, onChange, inputs, sub, setSub }: QuestionProps) {
  const { t } = useTranslation();
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
              {OPS.map((op) => (
                <button key={op} type="button" className="link-btn" aria-pressed={e?.op === op}
                  onClick={() => decide(i, op === "reword" ? { op, from: i, text: e?.text ?? text } : { op, from: i })}>
                  {t(`question.op.${op}`)}
                </button>
              ))}
              {e?.op === "reword" && (
                <input className="text-answer" data-reword={i} value={e.text ?? ""} aria-label={t("question.newWording", { label: q.label, n: i + 1 })}
                  onChange={(ev) => decide(i, { op: "reword", from: i, text: ev.target.value })} />
              )}
            </li>
          );
        })}
        {added.map((e, j) => (
          <li key={`add-${j}`} data-op="add">
            <span>{e.text}</span>
            <button type="button" className="link-btn" aria-label={t("question.removeAdded", { n: j + 1 })}
              onClick={() => emit(decided, added.filter((_, k) => k !== j))}>
              ×
            </button>
          </li>
        ))}
      </ol>
      <input data-edit className="text-answer" value={draft} placeholder={t("question.addEntry")}
        aria-label={t("question.newEntry", { label: q.label })} onChange={(ev) => setDraft(ev.target.value)} onKeyDown={onAddKey} />
      <p className="counter">
        {t("question.decided", { decided: decided.size, total: original.length, kept })}
        {q.min !== undefined || q.max !== undefined ? t("question.expected", { min: q.min ?? 0, max: q.max ?? "∞" }) : ""}
      </p>
    </div>
  );
}
