import { describe, expect, it } from "vitest";
import { fireEvent, render, screen, within } from "@testing-library/react";
import type { ClaimContext, ConsensusState, Question } from "../../../api";
import { columnsOf, statesOf } from "./columns";
import { LabelsTable } from "./LabelsTable";

const qs: Question[] = [
  { key: "a", kind: "binary", label: "Subject present" },
  { key: "b", kind: "binary", label: "Colours right" },
];
const ctx: ClaimContext = {
  labels: [
    {
      assignment_id: "1",
      by: "Annotator 1",
      answers: { a: "yes", b: "yes" },
      original: { a: "yes", b: "no" },
      counted: true,
      review: { by: "Reviewer 1", verdict: "correct", comment: "Mostly right.", comments: { b: "The apple is red, not green.", a: "  " }, answers: { a: "yes", b: "yes" } },
    },
    { assignment_id: "2", by: "u2", name: "Ben", answers: { a: "yes", b: "yes" }, original: { a: "yes", b: "yes" }, counted: true, review: { by: "u9", name: "Rui", verdict: "approve" } },
    { assignment_id: "3", by: "Annotator 3", answers: { a: "no", b: "no" }, original: { a: "no", b: "no" }, counted: false, review: { by: "Reviewer 1", verdict: "reject", comment: "Wrong item." } },
  ],
  consensus: { agreed: true, provenance: "unanimous", questions: [{ question: "a", state: "unanimous", answer: "yes" }, { question: "b", state: "unanimous", answer: "yes" }] },
};

function table(c: ClaimContext = ctx, onTake = (_: number) => {}) {
  render(<LabelsTable questions={qs} columns={columnsOf(c)} states={statesOf(c)} picks={{}} errors={{}} active={0} onActive={() => {}} onPick={() => {}} onTake={onTake} />);
  return screen.getByRole("table", { name: "Labels per question" });
}

describe("LabelsTable columns", () => {
  it("shows each original, the correction, the rejected label and the consensus, each with its keys", () => {
    let taken = -1;
    const t = table(ctx, (i) => (taken = i));
    const heads = [...t.querySelectorAll("th.label-col")].map((th) => th.textContent);
    expect(heads).toHaveLength(5);
    expect(heads[0]).toContain("1 Annotator 1corrected");
    expect(heads[0]).toContain("“Mostly right.”");
    expect(heads[1]).toContain("correction of Annotator 1");
    expect(heads[3]).toContain("not counted");
    expect(heads[3]).toContain("“Wrong item.”");
    expect(heads[4]).toContain("Consensus");
    const row = t.querySelector('tr[data-question="b"]') as HTMLElement;
    // The original "no" under Annotator 1, the correction "yes" beside it.
    expect([...row.querySelectorAll(".val")].map((v) => v.textContent)).toEqual(["No", "Yes", "Yes", "No", "Yes"]);
    fireEvent.click(within(t.querySelectorAll("th.label-col")[2] as HTMLElement).getByRole("button", { name: /all/ }));
    expect(taken).toBe(2);
  });

  it("shows a reviewer's note in the row of its question, under the label it was left on", () => {
    const t = table();
    const row = (key: string) => t.querySelector(`tr[data-question="${key}"]`) as HTMLElement;
    const notes = within(row("b")).getAllByTestId("review-note");
    expect(notes.map((n) => n.textContent)).toEqual(["Reviewer 1: The apple is red, not green."]);
    // In the first label's column (after # and Question).
    expect(row("b").querySelectorAll("td")[2].contains(notes[0])).toBe(true);
    expect(within(row("a")).queryByTestId("review-note")).toBeNull();
  });
});

describe("LabelsTable consensus states and the final column", () => {
  const scored: Question[] = [
    { key: "s", kind: "likert", label: "Score", required: true, min: 1, max: 5 },
    { key: "v", kind: "binary", label: "Visible", required: true },
    { key: "why", kind: "binary", label: "Optional check" },
  ];
  function rows(states: Record<string, ConsensusState>) {
    const c: ClaimContext = {
      labels: [3, 4, 5].map((x, i) => ({ assignment_id: String(i), by: `Annotator ${i + 1}`, answers: { s: x }, original: { s: x }, counted: true })),
      consensus: { agreed: false, provenance: "", questions: Object.entries(states).map(([question, state]) => ({ question, state })) },
    };
    const t = table(c);
    void t;
    render(<LabelsTable questions={scored} columns={columnsOf(c)} states={states} picks={{}} errors={{}} active={0} onActive={() => {}} onPick={() => {}} onTake={() => {}} />);
    const all = screen.getAllByRole("table", { name: "Labels per question" });
    return (key: string) => all[1].querySelector(`tr[data-question="${key}"]`) as HTMLElement;
  }

  it("names the server's state of each question", () => {
    const row = rows({ s: "tolerance", v: "majority", why: "no_consensus" });
    expect(within(row("s")).getByText("within tolerance")).toBeTruthy();
    expect(within(row("v")).getByText("majority")).toBeTruthy();
    expect(within(row("why")).getByText("no consensus")).toBeTruthy();
    expect(row("why").className).toContain("dis-open");
  });

  it("asks to choose only for required questions", () => {
    const row = rows({});
    expect(within(row("s")).getByText("choose")).toBeTruthy();
    expect(within(row("why")).queryByText("choose")).toBeNull();
  });
});
