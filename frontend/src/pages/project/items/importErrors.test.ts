import { describe, expect, it } from "vitest";
import { errorRows } from "./importErrors";

describe("errorRows", () => {
  it("gives each field of a refused line its own row with the problem and a fix, and a line refused whole one row", () => {
    const rows = errorRows([
      { line: 3, error: 'unknown field "pool"', details: { pool: { code: "unknown_field", message: '"pool" is not a field here' } } },
      {
        line: 4,
        error: "invalid item",
        details: {
          "inputs.generator": { code: "required", message: 'input "generator" is required' },
          "inputs.caption": { code: "unknown_input", message: '"caption" is not an input of this schema' },
        },
      },
      { line: 5, error: "malformed JSON: unexpected end of JSON input" },
      { line: 6, error: 'external_id "a" repeats line 2' },
      { line: 7, error: 'unknown field "ground_truth.pa"', details: { "ground_truth.pa": { code: "unknown_field", message: "x" } } },
    ]);
    expect(rows.map((r) => [r.line, r.field, r.code ?? ""])).toEqual([
      [3, "pool", "unknown_field"],
      [4, "inputs.caption", "unknown_input"],
      [4, "inputs.generator", "required"],
      [5, "", ""],
      [6, "external_id", ""],
      [7, "ground_truth.pa", "unknown_field"],
    ]);
    expect(rows[0].hint).toContain("choose the calibration pool");
    expect(rows[2].hint).toBe('Add "generator" to the line\'s inputs.');
    expect(rows[3].problem).toContain("malformed JSON");
    expect(rows[3].hint).toContain("one complete JSON object");
    expect(rows[4].hint).toContain("its own external_id");
    expect(rows[5].hint).toContain("correct its spelling");
  });
});
