// Every built-in template, as the server shows it to an annotator (the golden
// views of tasks/testdata/views), answered with the keyboard alone and
// auto-advance on: one-key answers move the form on by themselves, free text
// is typed only where it is required, and Enter submits at the end.
import { describe, expect, it, vi } from "vitest";
import { fireEvent, render } from "@testing-library/react";
import { AnnotationForm } from "./AnnotationForm";
import { FormProviders } from "./testing";
import { slotLabel } from "./schema";
import type { Item, Question, Schema } from "../api";

interface GoldenView {
  view: { schema: Schema; item: Item };
}

const views = import.meta.glob<GoldenView>("../../../tasks/testdata/views/*.json", { eager: true, import: "default" });
const templates = Object.entries(views).map(([path, v]) => [path.replace(/^.*\/(.*)\.json$/, "$1"), v.view] as const);

/** A key press; Enter on a focused button also clicks it, as browsers do unless a handler prevented it. */
function press(key: string, opts: KeyboardEventInit = {}) {
  const target = document.activeElement ?? document;
  const proceed = fireEvent.keyDown(target, { key, bubbles: true, cancelable: true, ...opts });
  if (proceed && key === "Enter" && target instanceof HTMLButtonElement) fireEvent.click(target);
}
const activeKey = () => document.querySelector(".q-card[data-active]")?.getAttribute("data-question");

/** The keys that answer q in one go; after them auto-advance moves on, except where noted in `staysAfter`. */
function keysFor(q: Question): string[] {
  switch (q.kind) {
    case "binary":
      return ["y"];
    case "likert":
      return [String(q.max === 10 && (q.min ?? 1) >= 1 ? 9 : (q.max ?? 5) - 1)];
    case "choice":
      return ["1"];
    case "multi_choice":
      return ["1"];
    case "pairwise":
      return ["a"];
    case "ranking":
      return Array.from({ length: 2 }, (_, i) => slotLabel(i).toLowerCase());
    case "checklist":
      return (q.items ?? []).map((it) => String(it.max));
  }
  return [];
}

/** Kinds whose answer does not move the form on (typing, toggling): the annotator presses j after them. */
const staysAfter = (q: Question) => q.kind === "text" || q.kind === "criteria" || q.kind === "multi_choice";

function typeText(q: Question) {
  press("Enter");
  const field = document.activeElement as HTMLTextAreaElement;
  expect(field.tagName, `Enter starts typing in ${q.key}`).toBe("TEXTAREA");
  const text = "The motion is smooth and the contacts hold throughout the clip.".padEnd(Math.max(q.min_length ?? 0, 20), " more detail");
  fireEvent.change(field, { target: { value: text.slice(0, q.max_length || text.length) } });
  press("Escape");
}

describe.each(templates)("template %s answered by keyboard with auto-advance", (_name, view) => {
  it("records every required answer and never stops on optional free text", () => {
    const onSubmit = vi.fn();
    render(
      <FormProviders>
        <AnnotationForm schema={view.schema} item={view.item} onSubmit={onSubmit} />
      </FormProviders>,
    );
    // Notes meant for schema authors (placeholder syntax) never reach the annotator as text.
    expect(document.body.textContent).not.toMatch(/\{[a-z_0-9]+(#\d+|: \[)/);
    const qs = view.schema.questions;
    const byKey = new Map(qs.map((q) => [q.key, q]));
    const visited: string[] = [];
    for (let guard = 0; guard < qs.length * 2 && !onSubmit.mock.calls.length; guard++) {
      const focusedButton = document.activeElement?.tagName === "BUTTON";
      const q = byKey.get(activeKey() ?? "");
      if (!q || focusedButton || visited.includes(q.key)) break;
      visited.push(q.key);
      // Auto-advance only ever lands on questions that need an answer.
      expect(q.required || !staysAfter(q), `auto-advance stopped on optional ${q.kind} "${q.key}"`).toBe(true);
      if (q.kind === "text" || q.kind === "criteria") typeText(q);
      else keysFor(q).forEach((k) => press(k));
      if (staysAfter(q)) press("j");
    }
    // Every required question was reached and answered; Enter submits (Ctrl+Enter after typing the last answer).
    expect(visited).toEqual(qs.filter((q) => q.required || !staysAfter(q)).map((q) => q.key));
    const last = byKey.get(activeKey() ?? "");
    if (last && (last.kind === "text" || last.kind === "criteria")) press("Enter", { ctrlKey: true });
    else press("Enter");
    expect(onSubmit).toHaveBeenCalledTimes(1);
    const sent = onSubmit.mock.calls[0][0] as Record<string, unknown>;
    for (const q of qs.filter((x) => x.required)) expect(sent[q.key], `answer to ${q.key}`).toBeDefined();
    // Optional comments were passed over, not answered by a stray key.
    for (const q of qs.filter((x) => !x.required && staysAfter(x))) expect(sent[q.key]).toBeUndefined();
  });
});

describe("templates", () => {
  it("are all here", () => {
    expect(templates.length).toBeGreaterThanOrEqual(14);
  });
});
