import { describe, expect, it } from "vitest";
import { render, screen } from "@testing-library/react";
import { JsonView } from "./InputValue";

describe("JsonView", () => {
  it("shows a checklist per rubric as a list under each rubric's heading", () => {
    render(<JsonView value={{ relevance: ["Names the object", "Gives a use"], clarity_of_text: ["Is one sentence"] }} />);
    expect(screen.getByRole("heading", { name: "Relevance" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Clarity of text" })).toBeTruthy();
    const lists = screen.getAllByRole("list");
    expect(lists.map((l) => [...l.querySelectorAll("li")].map((li) => li.textContent))).toEqual([["Names the object", "Gives a use"], ["Is one sentence"]]);
    expect(document.querySelector("pre")).toBeNull();
  });

  it("shows a list of texts, from a JSON string too, as a list", () => {
    render(<JsonView value={'["first", "second"]'} />);
    expect([...screen.getByRole("list").querySelectorAll("li")].map((li) => li.textContent)).toEqual(["first", "second"]);
  });

  it("pretty-prints anything else", () => {
    render(<JsonView value={{ score: 4, tags: ["a"] }} />);
    expect(document.querySelector("pre")?.textContent).toBe(JSON.stringify({ score: 4, tags: ["a"] }, null, 2));
    expect(screen.queryByRole("list")).toBeNull();
  });
});
