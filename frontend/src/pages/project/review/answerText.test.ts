import { describe, expect, it } from "vitest";
import type { Question } from "../../../api";
import { answerKey, answerText } from "./answerText";

const likert: Question = { key: "pa", kind: "likert", label: "PA", min: 1, max: 5, anchors: [{ value: 4, label: "minor issues only" }] };
const check: Question = {
  key: "c",
  kind: "checklist",
  label: "Checklist",
  items: [
    { key: "a", label: "Agent", max: 2 },
    { key: "b", label: "Scene", max: 2 },
  ],
};

describe("answerText", () => {
  it("reads each kind", () => {
    expect(answerText({ key: "x", kind: "binary", label: "X" }, "yes")).toBe("Yes");
    expect(answerText({ key: "x", kind: "binary", label: "X", allow_na: true }, "na")).toBe("N/A");
    expect(answerText(likert, 4)).toBe("4 · minor issues only");
    expect(answerText(check, { a: 2, b: 1 })).toBe("Agent 2/2 · Scene 1/2");
    expect(answerText({ key: "p", kind: "pairwise", label: "P" }, "tie")).toBe("Tie");
    expect(answerText({ key: "r", kind: "ranking", label: "R" }, ["B", "A"])).toBe("B > A");
    expect(answerText(likert, undefined)).toBe("—");
  });
  it("compares checklist answers regardless of key order", () => {
    expect(answerKey({ a: 1, b: 2 })).toBe(answerKey({ b: 2, a: 1 }));
    expect(answerKey("yes")).not.toBe(answerKey("no"));
  });
});
