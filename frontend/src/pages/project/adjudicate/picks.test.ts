import { describe, expect, it } from "vitest";
import type { LabelView } from "../../../api/workflowTypes";
import type { Question } from "../../../api";
import { choicesFor, initialPicks, labelName } from "./picks";

const qs: Question[] = [
  { key: "a", kind: "binary", label: "A" },
  { key: "b", kind: "binary", label: "B" },
  { key: "c", kind: "likert", label: "C", min: 1, max: 5 },
];
const labels: LabelView[] = [
  { assignment_id: "1", by: "Annotator 1", answers: { a: "yes", b: "yes", c: 4 } },
  { assignment_id: "2", by: "u2", name: "Ben", answers: { a: "yes", b: "no", c: 3 } },
  { assignment_id: "3", by: "Annotator 3", answers: { a: "yes", b: "no", c: 4 } },
];

describe("adjudication picks", () => {
  it("groups values, most chosen first", () => {
    expect(choicesFor(qs[1], labels)).toEqual([
      { value: "no", labels: [1, 2] },
      { value: "yes", labels: [0] },
    ]);
  });
  it("prefills agreed and resolved questions only", () => {
    const ds = [
      { question: "b", resolved: false, values: ["yes", "no", "no"] },
      { question: "c", resolved: true, values: [4, 3, 4] },
    ];
    expect(initialPicks(qs, labels, ds)).toEqual({ a: "yes", c: 4 });
  });
  it("names labels by name when shown", () => {
    expect(labelName(labels[1], 1)).toBe("Ben");
    expect(labelName(labels[0], 0)).toBe("Annotator 1");
  });
});
