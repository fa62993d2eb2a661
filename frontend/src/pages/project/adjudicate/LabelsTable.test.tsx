import { describe, expect, it } from "vitest";
import { render, screen, within } from "@testing-library/react";
import type { LabelView } from "../../../api/workflowTypes";
import type { Question } from "../../../api";
import { LabelsTable } from "./LabelsTable";

const qs: Question[] = [
  { key: "a", kind: "binary", label: "Subject present" },
  { key: "b", kind: "binary", label: "Colours right" },
];
const labels: LabelView[] = [
  {
    assignment_id: "1",
    by: "Annotator 1",
    answers: { a: "yes", b: "no" },
    review: { by: "Reviewer 1", verdict: "correct", comments: { b: "The apple is red, not green.", a: "  " } },
  },
  { assignment_id: "2", by: "u2", name: "Ben", answers: { a: "yes", b: "yes" }, review: { by: "u9", name: "Rui", verdict: "approve" } },
];

function table() {
  render(<LabelsTable questions={qs} labels={labels} picks={{}} errors={{}} active={0} onActive={() => {}} onPick={() => {}} />);
  return screen.getByRole("table", { name: "Labels per question" });
}

describe("LabelsTable review notes", () => {
  it("shows a reviewer's note in the row of its question, under the label it was left on", () => {
    const t = table();
    const row = (key: string) => t.querySelector(`tr[data-question="${key}"]`) as HTMLElement;
    const notes = within(row("b")).getAllByTestId("review-note");
    expect(notes.map((n) => n.textContent)).toEqual(["Reviewer 1: The apple is red, not green."]);
    // In the first label's column (after # and Question).
    expect(row("b").querySelectorAll("td")[2].contains(notes[0])).toBe(true);
    // A blank note and questions without one show nothing.
    expect(within(row("a")).queryByTestId("review-note")).toBeNull();
    expect(screen.getAllByTestId("review-note")).toHaveLength(1);
  });

  it("names the reviewer when the project shows names", () => {
    labels[1].review!.comments = { a: "Fine." };
    const t = table();
    const row = t.querySelector('tr[data-question="a"]') as HTMLElement;
    expect(within(row).getByTestId("review-note").textContent).toBe("Rui: Fine.");
    delete labels[1].review!.comments;
  });
});

describe("LabelsTable final column and settled questions", () => {
  const scored: Question[] = [
    { key: "s", kind: "likert", label: "Score", required: true, min: 1, max: 5 },
    { key: "v", kind: "binary", label: "Visible", required: true },
    { key: "why", kind: "binary", label: "Optional check" },
  ];
  const three = (s: number[], v: string[]): LabelView[] =>
    s.map((x, i) => ({ assignment_id: String(i), by: `Annotator ${i + 1}`, answers: { s: x, v: v[i] } }));

  function rows(labels: LabelView[], resolved: string[]) {
    const ds = resolved.map((q) => ({ question: q, resolved: true, values: [] }));
    render(<LabelsTable questions={scored} labels={labels} disagreements={ds} picks={{}} errors={{}} active={0} onActive={() => {}} onPick={() => {}} />);
    const t = screen.getByRole("table", { name: "Labels per question" });
    return (key: string) => t.querySelector(`tr[data-question="${key}"]`) as HTMLElement;
  }

  it("says majority only where more than half the labels agree, else within tolerance", () => {
    const row = rows(three([3, 4, 5], ["yes", "yes", "no"]), ["s", "v"]);
    expect(within(row("v")).getByText("majority")).toBeTruthy();
    expect(within(row("s")).queryByText("majority")).toBeNull();
    expect(within(row("s")).getByText("within tolerance")).toBeTruthy();
  });

  it("asks to choose only for required questions", () => {
    const row = rows(three([3, 4, 5], ["yes", "yes", "no"]), []);
    expect(within(row("s")).getByText("choose")).toBeTruthy();
    expect(within(row("why")).queryByText("choose")).toBeNull();
  });
});
