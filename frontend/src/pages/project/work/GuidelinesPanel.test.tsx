import { beforeEach, describe, expect, it, vi } from "vitest";
import { act, fireEvent, render, screen } from "@testing-library/react";
import type { User } from "../../../api";
import { GuidelinesPanel, guidelinesStorageKey } from "./GuidelinesPanel";

let user: Pick<User, "id"> | null = { id: "u1" };
vi.mock("../../../auth", () => ({ useOptionalUser: () => user }));

const RULES = "# Rules\n\nPrefer the **safer** response.";
const panel = () => screen.queryByRole("region", { name: "Guidelines" });
const toggle = () => screen.getByRole("button", { name: /guidelines|show|hide/i });
const shown = () => screen.queryByText("safer")?.closest(".guidelines-body")?.hasAttribute("hidden") === false;
const pressG = (target: Element | Window = document.body) => fireEvent.keyDown(target, { key: "G", code: "KeyG", shiftKey: true });

describe("GuidelinesPanel", () => {
  beforeEach(() => {
    user = { id: "u1" };
  });

  it("is open on a person's first visit to a project, rendering the Markdown", () => {
    render(<GuidelinesPanel pid="p1" guidelines={RULES} />);
    expect(panel()).not.toBeNull();
    expect(screen.getByRole("heading", { name: "Rules" })).toBeTruthy();
    expect(screen.getByText("safer").tagName).toBe("STRONG");
    expect(shown()).toBe(true);
    expect(toggle().getAttribute("aria-expanded")).toBe("true");
    expect(toggle().getAttribute("aria-keyshortcuts")).toBe("Shift+G");
    expect(toggle().title).toBe("Hide the guidelines (Shift+G)");
  });

  it("remembers that the person closed it, per project and per person", () => {
    const first = render(<GuidelinesPanel pid="p1" guidelines={RULES} />);
    fireEvent.click(toggle());
    expect(shown()).toBe(false);
    expect(toggle().title).toBe("Show the guidelines (Shift+G)");
    first.unmount();

    const again = render(<GuidelinesPanel pid="p1" guidelines={RULES} />);
    expect(panel()).not.toBeNull();
    expect(shown()).toBe(false);
    expect(localStorage.getItem(guidelinesStorageKey("p1", "u1"))).toBe("closed");
    again.unmount();

    // Another project is a first visit: open.
    const other = render(<GuidelinesPanel pid="p2" guidelines={RULES} />);
    expect(shown()).toBe(true);
    other.unmount();

    // Another person in the same browser: open on their first visit.
    user = { id: "u2" };
    render(<GuidelinesPanel pid="p1" guidelines={RULES} />);
    expect(shown()).toBe(true);
  });

  it("reopens as left open after being shown again", () => {
    const first = render(<GuidelinesPanel pid="p1" guidelines={RULES} />);
    fireEvent.click(toggle());
    fireEvent.click(toggle());
    first.unmount();
    render(<GuidelinesPanel pid="p1" guidelines={RULES} />);
    expect(shown()).toBe(true);
  });

  it("toggles on Shift+G outside text fields, leaving the focus where it was", () => {
    render(
      <>
        <button type="button">First question</button>
        <textarea aria-label="Comment" />
        <GuidelinesPanel pid="p1" guidelines={RULES} />
      </>,
    );
    const question = screen.getByRole("button", { name: "First question" });
    act(() => question.focus());
    pressG(question);
    expect(shown()).toBe(false);
    expect(document.activeElement).toBe(question);
    pressG(question);
    expect(shown()).toBe(true);
    expect(document.activeElement).toBe(question);

    // g without Shift is an answer key (ranking slots, adjudication columns), not the panel's.
    fireEvent.keyDown(question, { key: "g", code: "KeyG" });
    expect(shown()).toBe(true);

    // In a text field the letter is typed.
    const box = screen.getByRole("textbox", { name: "Comment" });
    act(() => box.focus());
    pressG(box);
    expect(shown()).toBe(true);

    // A click on the button does not take the focus from the form either.
    act(() => question.focus());
    expect(fireEvent.mouseDown(toggle())).toBe(false);
    fireEvent.click(toggle());
    expect(shown()).toBe(false);
    expect(document.activeElement).toBe(question);
  });

  it("is absent when the project has no guidelines, and the key does nothing", () => {
    const { rerender } = render(<GuidelinesPanel pid="p1" guidelines="" />);
    expect(panel()).toBeNull();
    rerender(<GuidelinesPanel pid="p1" guidelines={"  \n "} />);
    expect(panel()).toBeNull();
    rerender(<GuidelinesPanel pid="p1" guidelines={undefined} />);
    expect(panel()).toBeNull();
    pressG();
    expect(localStorage.getItem(guidelinesStorageKey("p1", "u1"))).toBeNull();
  });
});
