import { describe, expect, it } from "vitest";
import type { Claim, Schema } from "../../../api";
import { decisionReducer, missingAnswers, startDecision, type DecisionAction } from "./decision";

const schema: Schema = {
  version: 1,
  inputs: [{ name: "prompt", type: "text" }],
  questions: [
    { key: "a", kind: "binary", label: "A", required: true },
    { key: "b", kind: "binary", label: "B", required: true },
    { key: "c", kind: "binary", label: "C", required: true },
  ],
};
const claim = {
  assignment: { id: "j1", stage: "adjudicate", lease_expires_at: "2030-01-01T00:00:00Z", version: 0, schema_version: 1, draft_source: null },
  item: { role: "adjudicator", schema, item: { inputs: { prompt: "x" } } },
  draft: null,
  context: {
    labels: [
      { assignment_id: "l1", by: "Annotator 1", answers: { a: "yes", b: "yes", c: "no" }, original: { a: "yes", b: "yes", c: "no" }, counted: true },
      { assignment_id: "l2", by: "Annotator 2", answers: { a: "yes", b: "no", c: "yes" }, original: { a: "yes", b: "yes", c: "yes" }, counted: true,
        review: { by: "Reviewer 1", verdict: "correct", answers: { a: "yes", b: "no", c: "yes" } } },
    ],
    disagreements: [
      { question: "b", resolved: false, values: ["yes", "no"] },
      { question: "c", resolved: false, values: ["no", "yes"] },
    ],
    consensus: {
      agreed: false,
      provenance: "",
      questions: [
        { question: "a", state: "unanimous", answer: "yes" },
        { question: "b", state: "no_consensus" },
        { question: "c", state: "no_consensus" },
      ],
    },
  },
} satisfies Claim;

const after = (...actions: DecisionAction[]) => actions.reduce(decisionReducer, startDecision(claim));

describe("decision", () => {
  it("starts from the agreed answers with the first open question in focus", () => {
    const d = startDecision(claim);
    expect(d.picks).toEqual({ a: "yes" });
    expect(d.active).toBe(1);
    expect(missingAnswers(d)).toBe(2);
  });

  it("picks a column's answer for the focused question and moves to the next open one", () => {
    const d = after({ type: "errors", errors: { b: { code: "required", message: "Answer this." } } }, { type: "pick", column: 2 });
    expect(d.picks.b).toBe("no");
    expect(d.errors).toEqual({});
    expect(d.active).toBe(2);
    expect(after({ type: "focus", index: 0 }, { type: "pick", column: 5 }).picks).toEqual({ a: "yes" });
  });

  it("takes a whole column: a label's original, not its correction", () => {
    const d = after({ type: "errors", errors: { c: { code: "required", message: "Answer this." } } }, { type: "take", column: 1 });
    expect(d.columns.map((c) => c.kind)).toEqual(["label", "label", "correction", "consensus"]);
    expect(d.picks).toEqual({ a: "yes", b: "yes", c: "yes" });
    expect(d.errors).toEqual({});
    expect(after({ type: "take", column: 2 }).picks).toEqual({ a: "yes", b: "no", c: "yes" });
    expect(after({ type: "take", column: 9 }).picks).toEqual({ a: "yes" });
  });

  it("goes round to the next question where the labels differ", () => {
    expect(after({ type: "nextDifference" }).active).toBe(2);
    expect(after({ type: "nextDifference" }, { type: "nextDifference" }).active).toBe(1);
  });

  it("toggles confidence and takes the edited answers as the picks", () => {
    expect(after({ type: "confidence", value: 4 }).confidence).toBe(4);
    expect(after({ type: "confidence", value: 4 }, { type: "confidence", value: 4 }).confidence).toBeNull();
    const d = after({ type: "edit", on: true }, { type: "answers", answers: { a: "no", b: "no", c: "no" } });
    expect(d).toMatchObject({ editing: false, picks: { a: "no", b: "no", c: "no" } });
    expect(missingAnswers(d)).toBe(0);
  });
});
