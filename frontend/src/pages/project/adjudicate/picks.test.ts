import { describe, expect, it } from "vitest";
import type { ClaimContext, Question } from "../../../api";
import { columnsOf } from "./columns";
import { labelName } from "./columns";
import { differs, initialPicks } from "./picks";

const qs: Question[] = [
  { key: "a", kind: "binary", label: "A" },
  { key: "b", kind: "binary", label: "B" },
  { key: "c", kind: "likert", label: "C", min: 1, max: 5 },
  { key: "why", kind: "text", label: "Why" },
];
const ctx: ClaimContext = {
  labels: [
    { assignment_id: "1", by: "Annotator 1", answers: { a: "yes", b: "yes", c: 4, why: "same" }, original: { a: "yes", b: "yes", c: 5, why: "same" }, counted: true,
      review: { by: "Reviewer 1", verdict: "correct", answers: { a: "yes", b: "yes", c: 4, why: "same" } } },
    { assignment_id: "2", by: "u2", name: "Ben", answers: { a: "yes", b: "no", c: 3, why: "same" }, original: { a: "yes", b: "no", c: 3, why: "same" }, counted: true },
    { assignment_id: "3", by: "Annotator 3", answers: { a: "no", b: "no", c: 1, why: "other" }, original: { a: "no", b: "no", c: 1, why: "other" }, counted: false,
      review: { by: "Reviewer 1", verdict: "reject" } },
  ],
  consensus: {
    agreed: false,
    provenance: "",
    questions: [
      { question: "a", state: "unanimous", answer: "yes" },
      { question: "b", state: "no_consensus" },
      { question: "c", state: "tolerance", answer: 3 },
      { question: "why", state: "text" },
    ],
  },
};

describe("adjudication picks", () => {
  it("prefills what consensus settled and free text the counted labels share", () => {
    expect(initialPicks(qs, ctx)).toEqual({ a: "yes", c: 3, why: "same" });
  });
  it("says where the columns differ, the rejected label included", () => {
    const cols = columnsOf(ctx);
    expect(differs(qs[0], cols)).toBe(true);
    expect(differs(qs[0], cols.filter((c) => c.counted))).toBe(false);
  });
  it("names labels by name when shown", () => {
    expect(labelName(ctx.labels![1], 1)).toBe("Ben");
    expect(labelName(ctx.labels![0], 0)).toBe("Annotator 1");
  });
});

describe("adjudication columns", () => {
  it("shows each original, each correction, then the consensus, keyed by digit and letter", () => {
    const cols = columnsOf(ctx);
    expect(cols.map((c) => [c.kind, c.title, c.digit, c.letter])).toEqual([
      ["label", "Annotator 1", "1", "a"],
      ["correction", "Reviewer 1", "2", "b"],
      ["label", "Ben", "3", "c"],
      ["label", "Annotator 3", "4", "d"],
      ["consensus", "Consensus", "5", "f"],
    ]);
    expect(cols[0].answers.c).toBe(5);
    expect(cols[1].answers.c).toBe(4);
    expect(cols[3].counted).toBe(false);
    expect(cols[4].answers).toEqual({ a: "yes", c: 3 });
  });
});
