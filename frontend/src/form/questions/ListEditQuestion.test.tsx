import { describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen } from "@testing-library/react";
import type { AnswerValue, Question, Schema } from "../../api";
import { ListEditQuestion, checkListEdit, inputList } from "./ListEditQuestion";

const q = { key: "relevance_items", kind: "list_edit", label: "Relevance checklist", list: "checklist", list_key: "relevance", min: 1, max: 2 } as Question;
const schema = { version: 1, inputs: [{ name: "checklist", type: "json" }], questions: [q] } as Schema;
const inputs = { checklist: { relevance: ["On topic", "Cites the image"] } };

describe("ListEditQuestion", () => {
  it("reads the list from the item's input", () => {
    expect(inputList(q, inputs)).toEqual(["On topic", "Cites the image"]);
    expect(inputList(q, {})).toEqual([]);
  });

  it("keeps, drops, rewords and adds, in list order", () => {
    let value: AnswerValue | undefined;
    const onChange = vi.fn((v: AnswerValue | undefined) => (value = v));
    const { rerender } = render(<ListEditQuestion q={q} schema={schema} value={value} onChange={onChange} sub={-1} setSub={() => {}} inputs={inputs} />);
    const again = () => rerender(<ListEditQuestion q={q} schema={schema} value={value} onChange={onChange} sub={-1} setSub={() => {}} inputs={inputs} />);
    fireEvent.click(screen.getAllByRole("button", { name: "drop" })[1]);
    again();
    fireEvent.click(screen.getAllByRole("button", { name: "reword" })[0]);
    again();
    fireEvent.change(screen.getByLabelText(/new wording of entry 1/), { target: { value: "Stays on topic" } });
    again();
    const add = screen.getByLabelText(/new entry/);
    fireEvent.change(add, { target: { value: "No invented details" } });
    fireEvent.keyDown(add, { key: "Enter" });
    expect(value).toEqual([
      { op: "reword", from: 0, text: "Stays on topic" },
      { op: "drop", from: 1 },
      { op: "add", text: "No invented details" },
    ]);
    expect(checkListEdit(q, value as AnswerValue, 2)).toBeNull();
  });

  it("checks decisions and bounds like the server", () => {
    const edits = (x: unknown) => x as AnswerValue;
    expect(checkListEdit(q, edits([{ op: "keep", from: 0 }]), 2)?.code).toBe("too_few");
    expect(checkListEdit(q, edits([{ op: "drop", from: 0 }, { op: "drop", from: 1 }]), 2)?.code).toBe("too_few");
    expect(checkListEdit(q, edits([{ op: "keep", from: 0 }, { op: "keep", from: 1 }, { op: "add", text: "x" }]), 2)?.code).toBe("too_many");
    expect(checkListEdit(q, edits([{ op: "reword", from: 0, text: " " }, { op: "keep", from: 1 }]), 2)?.code).toBe("too_short");
  });
});
