import { describe, expect, it } from "vitest";
import { cleanAnswers, validateAnswers } from "./answers";
import type { Schema } from "../api";

const schema: Schema = {
  version: 1,
  inputs: [{ name: "responses", type: "candidates", count: 3 }],
  questions: [
    { key: "ok", kind: "binary", label: "OK", required: true, allow_na: true },
    { key: "score", kind: "likert", label: "Score", min: 1, max: 5, required: true },
    { key: "pref", kind: "pairwise", label: "Pref", candidates: "responses" },
    { key: "rank", kind: "ranking", label: "Rank" },
    { key: "aspects", kind: "checklist", label: "Aspects", items: [{ key: "a", label: "A", max: 2 }, { key: "b", label: "B", max: 2 }] },
    { key: "why", kind: "text", label: "Why", min_length: 10, max_length: 20 },
    { key: "crit", kind: "criteria", label: "Criteria", min: 1, max: 2, max_length: 30 },
    { key: "tags", kind: "multi_choice", label: "Tags", options: [{ key: "x", label: "X" }, { key: "y", label: "Y" }], max: 1 },
  ],
};

describe("validateAnswers", () => {
  it("reports missing required answers only", () => {
    const errs = validateAnswers(schema, {});
    expect(Object.keys(errs).sort()).toEqual(["ok", "score"]);
    expect(errs.ok.code).toBe("required");
  });

  it("accepts a complete, well-formed submission", () => {
    const errs = validateAnswers(schema, {
      ok: "na",
      score: 5,
      pref: "A",
      rank: ["B", "C", "A"],
      aspects: { a: 0, b: 2 },
      why: "  long enough  ",
      crit: ["Clarity"],
      tags: ["y"],
    });
    expect(errs).toEqual({});
  });

  it("mirrors the server's rules per kind", () => {
    const errs = validateAnswers(schema, {
      ok: "yes",
      score: 6,
      pref: "tie",
      rank: ["A", "A", "B"],
      aspects: { a: 1 },
      why: "short",
      crit: ["Same", " same "],
      tags: ["x", "y"],
    });
    expect(Object.fromEntries(Object.entries(errs).map(([k, v]) => [k, v.code]))).toEqual({
      score: "out_of_range",
      pref: "tie_not_allowed",
      rank: "duplicate_key",
      aspects: "required",
      why: "too_short",
      crit: "duplicate_key",
      tags: "too_many",
    });
  });

  it("leaves blank optional answers out of what is sent", () => {
    expect(cleanAnswers({ ok: "yes", why: "   ", crit: [], aspects: {}, score: 0 })).toEqual({ ok: "yes", score: 0 });
  });
});
