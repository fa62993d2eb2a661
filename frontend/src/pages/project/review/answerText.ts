// Answers as short readable text, for tables that show several people's
// answers side by side (review, adjudication, the items browser).
import type { AnswerValue, Question } from "../../../api";

/** A stable string for comparing two answers. */
export function answerKey(v: AnswerValue | undefined): string {
  if (v === undefined || v === null) return "";
  if (typeof v === "object" && !Array.isArray(v)) {
    return JSON.stringify(Object.keys(v).sort().map((k) => [k, (v as Record<string, number>)[k]]));
  }
  return JSON.stringify(v);
}

/** The answer to q as people read it: "Yes", "4 · minor issues only", "A > C > B". */
export function answerText(q: Question | undefined, v: AnswerValue | undefined): string {
  if (v === undefined || v === null || v === "") return "—";
  if (!q) return typeof v === "object" ? JSON.stringify(v) : String(v);
  if (v === "na") return "N/A";
  switch (q.kind) {
    case "binary":
      return v === "yes" ? "Yes" : v === "no" ? "No" : String(v);
    case "likert": {
      const a = q.anchors?.find((x) => x.value === v);
      return a ? `${v} · ${a.label}` : String(v);
    }
    case "choice":
      return q.options?.find((o) => o.key === v)?.label ?? String(v);
    case "multi_choice":
      return Array.isArray(v) ? v.map((k) => q.options?.find((o) => o.key === k)?.label ?? k).join(", ") || "—" : String(v);
    case "pairwise":
      return v === "tie" ? "Tie" : `${v} better`;
    case "ranking":
      return Array.isArray(v) ? v.join(" > ") : String(v);
    case "checklist":
      if (typeof v === "object" && !Array.isArray(v)) {
        return (q.items ?? []).map((it) => `${it.label} ${(v as Record<string, number>)[it.key] ?? "–"}/${it.max}`).join(" · ");
      }
      return String(v);
    case "criteria":
      return Array.isArray(v) ? v.join("; ") : String(v);
    default:
      return typeof v === "object" ? JSON.stringify(v) : String(v);
  }
}

/** The short name of a question for compact tables. */
export function questionName(q: Question): string {
  return q.short_label || q.label;
}
