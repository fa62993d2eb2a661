import { describe, expect, it } from "vitest";
import type { JudgeReport } from "../../../api/insight";
import { couplingCells } from "./Coupling";

type Coupling = NonNullable<JudgeReport["coupling"]>;

describe("coupling cells", () => {
  it("carry the diagonal as the server gives it: null (n/a) for a question the judge answers constantly", () => {
    const c = {
      questions: ["clarity", "noise"],
      judge: [
        [1, null],
        [null, null],
      ],
      reference: [
        [1, 0.7],
        [0.7, 1],
      ],
      excess: [
        [0, null],
        [null, null],
      ],
      yes_side: [
        [null, null],
        [null, null],
      ],
      no_side: [
        [null, null],
        [null, null],
      ],
      coupled: 0,
      strong: 0,
    } as unknown as Coupling;
    expect(couplingCells(c, "judge")).toEqual([
      { a: "clarity", b: "clarity", r: 1, flagged: false },
      { a: "clarity", b: "noise", r: null, flagged: false },
      { a: "noise", b: "noise", r: null, flagged: false },
    ]);
    // the reference's pair is never flagged, nor is a diagonal
    expect(couplingCells(c, "reference").filter((x) => x.flagged)).toEqual([]);
  });
});
