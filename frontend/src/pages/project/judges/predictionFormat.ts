// The line a predictions import expects, made from the project's schema: the
// contract's PredictionLine with an answer of the right kind for each question.
import type { Component } from "../../../api/contract";
import type { AnswerValue, Question, Schema } from "../../../api/taskSchema";

export type PredictionLine = Component<"PredictionLine">;

/** One question as a prediction answers it: its key, kind and the values it takes. */
export interface PredictionField {
  key: string;
  label: string;
  kind: Question["kind"];
  values: string;
  example: AnswerValue;
}

const orNA = (q: Question, values: string) => (q.allow_na ? `${values} or "na"` : values);
const quoted = (keys: string[]) => keys.map((k) => `"${k}"`).join(", ");

/** What a prediction may answer for a question: the values and one example; null for kinds made in the app only. */
export function predictionField(q: Question): PredictionField | null {
  const f = (values: string, example: AnswerValue): PredictionField => ({ key: q.key, label: q.short_label || q.label, kind: q.kind, values, example });
  const options = (q.options ?? []).map((o) => o.key);
  switch (q.kind) {
    case "binary":
      return f(orNA(q, `"yes" or "no"`), "yes");
    case "likert": {
      const lo = q.min ?? 1;
      const hi = q.max ?? 5;
      return f(orNA(q, `an integer ${lo}–${hi}`), hi);
    }
    case "pairwise":
      return f(q.allow_tie ? `"A", "B" or "tie"` : `"A" or "B"`, "A");
    case "choice":
      return f(orNA(q, `one of ${quoted(options)}`), options[0] ?? "");
    case "multi_choice":
      return f(`a list of ${quoted(options)}`, options.slice(0, 1));
    case "ranking":
      return f("the candidate slots, best first", ["A", "B"]);
    case "checklist": {
      const items = q.items ?? [];
      return f(`an object of ${quoted(items.map((i) => i.key))} to scores`, Object.fromEntries(items.slice(0, 1).map((i) => [i.key, i.max])));
    }
    case "text":
      return f("a string", "…");
    default:
      return null;
  }
}

/** The answerable questions of a schema, in its order. */
export function predictionFields(schema: Schema | null | undefined): PredictionField[] {
  return (schema?.questions ?? []).map(predictionField).filter((f): f is PredictionField => f !== null);
}

/** An example line: the contract's shape with every answerable question of the schema. */
export function predictionExample(schema: Schema | null | undefined, model = "judge-a"): PredictionLine {
  const answers = Object.fromEntries(predictionFields(schema).map((f) => [f.key, f.example]));
  return { external_id: "item-0001", model, answers };
}
