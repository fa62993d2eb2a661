// Answers as short readable text, for tables that show several people's
// answers side by side (review, adjudication, the items browser).
import type { AnswerValue, Kind, Question } from "../../../api";
import { forKind } from "../../../form/kinds";
import i18n from "../../../i18n";

const t = (key: string, values?: Record<string, unknown>) => i18n.t(key, values ?? {});

/** A stable string for comparing two answers. */
export function answerKey(v: AnswerValue | undefined): string {
  if (v === undefined || v === null) return "";
  if (typeof v === "object" && !Array.isArray(v)) {
    return JSON.stringify(Object.keys(v).sort().map((k) => [k, (v as Record<string, number>)[k]]));
  }
  return JSON.stringify(v);
}

/** An answer as it is, for a kind that has no words of its own. */
const asIs = (v: AnswerValue) => (typeof v === "object" ? JSON.stringify(v) : String(v));

/** One present answer to a question of the kind, in words. */
type Words = (q: Question, v: AnswerValue) => string;

/** The words of each kind. */
const WORDS: Record<Kind, Words> = {
  binary: (_q, v) => (v === "yes" ? t("answer.yes") : v === "no" ? t("answer.no") : String(v)),
  likert: (q, v) => {
    const a = q.anchors?.find((x) => x.value === v);
    return a ? `${v} · ${a.label}` : String(v);
  },
  choice: (q, v) => q.options?.find((o) => o.key === v)?.label ?? String(v),
  multi_choice: (q, v) => (Array.isArray(v) ? v.map((k) => q.options?.find((o) => o.key === k)?.label ?? k).join(t("answer.listSeparator")) || "—" : String(v)),
  pairwise: (_q, v) => (v === "tie" ? t("answer.tie") : t("answer.better", { slot: v })),
  ranking: (_q, v) => (Array.isArray(v) ? v.join(" > ") : String(v)),
  checklist: (q, v) =>
    typeof v === "object" && !Array.isArray(v)
      ? (q.items ?? []).map((it) => `${it.label} ${(v as Record<string, number>)[it.key] ?? "–"}/${it.max}`).join(" · ")
      : String(v),
  criteria: (_q, v) => (Array.isArray(v) ? v.join("; ") : String(v)),
  text: (_q, v) => asIs(v),
  list_edit: (_q, v) => asIs(v),
};

/** The answer to q as people read it: "Yes", "4 · minor issues only", "A > C > B". */
export function answerText(q: Question | undefined, v: AnswerValue | undefined): string {
  if (v === undefined || v === null || v === "") return "—";
  if (!q) return asIs(v);
  if (v === "na") return t("answer.na");
  return (forKind(WORDS, q.kind) ?? ((_q, x) => asIs(x)))(q, v);
}

/** The short name of a question for compact tables. */
export function questionName(q: Question): string {
  return q.short_label || q.label;
}
