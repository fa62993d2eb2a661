import { describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen } from "@testing-library/react";
import { AnnotationForm } from "./AnnotationForm";
import { FormProviders } from "./testing";
import type { Item, Schema } from "../api";

const schema: Schema = {
  version: 1,
  groups: [{ key: "prompt", label: "Prompt-related", help: "With the prompt." }],
  inputs: [
    { name: "prompt", type: "text", label: "Prompt" },
    { name: "notes", type: "markdown", label: "Notes" },
    { name: "generator", type: "text", hidden: true },
  ],
  questions: [
    { key: "fidelity", kind: "binary", label: "Prompt fidelity", group: "prompt", required: true, allow_na: true, help: "Does it match?" },
    {
      key: "quality",
      kind: "likert",
      label: "Quality",
      required: true,
      min: 1,
      max: 5,
      anchors: [
        { value: 1, label: "broken" },
        { value: 5, label: "flawless" },
      ],
      inputs: ["notes"],
    },
    { key: "why", kind: "text", label: "Rationale", required: true, min_length: 5 },
  ],
};
const item: Item = { external_id: "it-1", inputs: { prompt: "A red apple", notes: "**Look closely**", generator: "secret-model" } };

function setup(extra: Partial<Parameters<typeof AnnotationForm>[0]> = {}) {
  const onSubmit = vi.fn();
  render(
    <FormProviders>
      <AnnotationForm schema={schema} item={item} onSubmit={onSubmit} {...extra} />
    </FormProviders>,
  );
  return onSubmit;
}

const key = (k: string, opts: KeyboardEventInit = {}, target: Element | Document = document.activeElement ?? document) =>
  fireEvent.keyDown(target, { key: k, bubbles: true, ...opts });
const active = () => document.querySelector("[data-active]")?.getAttribute("data-question");

describe("AnnotationForm", () => {
  it("renders inputs (without hidden ones), groups, help and anchors", () => {
    setup();
    expect(screen.getByText("A red apple")).toBeTruthy();
    expect(screen.queryByText("secret-model")).toBeNull();
    expect(screen.getByText("Prompt-related")).toBeTruthy();
    expect(screen.getByText("Does it match?")).toBeTruthy();
    expect(screen.getByText("flawless")).toBeTruthy();
    expect(active()).toBe("fidelity");
  });

  it("is answered and submitted with the keyboard alone", () => {
    const onSubmit = setup();
    key("y");
    expect(active()).toBe("quality");
    key("4");
    expect(active()).toBe("why");
    key("Enter", { ctrlKey: true });
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByRole("alert").textContent).toMatch(/required/);

    key("Enter");
    const field = screen.getByRole("textbox", { name: "Rationale" });
    expect(document.activeElement).toBe(field);
    key("y", {}, field); // typed into the field, not a shortcut
    fireEvent.change(field, { target: { value: "apple is red" } });
    key("Escape", {}, field);
    expect(document.activeElement?.getAttribute("data-question")).toBe("why");

    key("k");
    key("k");
    key("n");
    key("Enter", { ctrlKey: true });
    expect(onSubmit).toHaveBeenCalledWith({ fidelity: "no", quality: 4, why: "apple is red" });
  });

  it("takes a click on a button of another question without moving it before the click lands", () => {
    setup();
    const quality = document.querySelector('[data-question="quality"]')!;
    const four = screen.getAllByRole("radio").find((b) => b.closest("[data-question]") === quality && b.textContent?.startsWith("4"))!;
    // note: focusing the card on mousedown re-lays out the form before mouseup; it must wait for the click
    const down = fireEvent.mouseDown(four);
    expect(down).toBe(false); // default prevented: focus stays where it was
    expect(active()).toBe("fidelity");
    fireEvent.click(four);
    expect(active()).toBe("quality");
    expect(document.activeElement).toBe(quality);
    expect(four.getAttribute("aria-checked")).toBe("true");
  });

  it("folds inputs the focused question may not see", () => {
    setup();
    key("j");
    const prompt = document.querySelector('[data-input="prompt"]')!;
    expect(prompt.className).toContain("withheld");
    expect(prompt.textContent).toContain("Not for this question");
    expect(document.querySelector('[data-input="notes"]')!.className).not.toContain("withheld");
  });

  it("shows server problems on their questions until the answer changes", () => {
    setup({ serverErrors: { fidelity: { code: "invalid_value", message: "Server says no." } } });
    expect(screen.getByText("Server says no.")).toBeTruthy();
    key("y");
    expect(screen.queryByText("Server says no.")).toBeNull();
  });

  it("toggles the shortcut legend with ?", () => {
    setup();
    key("?");
    expect(screen.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeTruthy();
    key("Escape");
    expect(screen.queryByRole("dialog", { name: "Keyboard shortcuts" })).toBeNull();
  });
});
