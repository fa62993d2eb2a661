import { describe, expect, it } from "vitest";
import { keyAction, likertDigit, optionDigit, type KeyContext } from "./keys";
import type { Question } from "../api";

const ctx = (q: Partial<Question>, current?: KeyContext["current"], sub = 0, slots = 2): KeyContext => ({
  q: { key: "q", label: "Q", kind: "binary", ...q } as Question,
  current,
  sub,
  slots,
});

describe("keyAction", () => {
  it.each([
    ["y", "yes"],
    ["n", "no"],
    ["Y", "yes"],
  ])("binary %s → %s and advances", (key, want) => {
    expect(keyAction(ctx({ kind: "binary" }), key)).toEqual({ value: want, set: true, advance: true });
  });

  it("binary N/A only when allowed", () => {
    expect(keyAction(ctx({ kind: "binary" }), "a")).toBeNull();
    expect(keyAction(ctx({ kind: "binary", allow_na: true }), "a")?.value).toBe("na");
  });

  it("likert digits, 0 as 10, arrows and N/A", () => {
    const q = { kind: "likert" as const, min: 1, max: 10, allow_na: true };
    expect(keyAction(ctx(q), "7")?.value).toBe(7);
    expect(keyAction(ctx(q), "0")?.value).toBe(10);
    expect(keyAction(ctx(q), "a")?.value).toBe("na");
    expect(keyAction(ctx(q, 4), "ArrowRight")).toEqual({ value: 5, set: true, advance: false });
    expect(keyAction(ctx(q, 1), "ArrowLeft")?.value).toBe(1);
    expect(keyAction(ctx({ kind: "likert", min: 1, max: 5 }), "6")).toBeNull();
    expect(likertDigit("0", 0, 4)).toBe(0);
    expect(likertDigit("5", 0, 4)).toBeNull();
  });

  it("choice digits pick options; multi_choice toggles in schema order", () => {
    const options = [
      { key: "angry", label: "Angry" },
      { key: "happy", label: "Happy" },
      { key: "sad", label: "Sad" },
    ];
    expect(keyAction(ctx({ kind: "choice", options }), "2")?.value).toBe("happy");
    expect(keyAction(ctx({ kind: "choice", options }), "4")).toBeNull();
    expect(keyAction(ctx({ kind: "choice", options }, "sad"), "ArrowRight")?.value).toBe("angry");
    expect(keyAction(ctx({ kind: "multi_choice", options }, ["sad"]), "1")?.value).toEqual(["angry", "sad"]);
    expect(keyAction(ctx({ kind: "multi_choice", options }, ["sad"]), "3")?.value).toEqual([]);
    expect(optionDigit("0", 10)).toBe(9);
  });

  it("pairwise a/b/t, tie only when allowed", () => {
    expect(keyAction(ctx({ kind: "pairwise" }), "b")?.value).toBe("B");
    expect(keyAction(ctx({ kind: "pairwise" }), "t")).toBeNull();
    expect(keyAction(ctx({ kind: "pairwise", allow_tie: true }), "t")?.value).toBe("tie");
  });

  it("ranking appends slots, fills the last one, and undoes", () => {
    const r = keyAction(ctx({ kind: "ranking" }, undefined, 0, 3), "c");
    expect(r?.value).toEqual(["C"]);
    const r2 = keyAction(ctx({ kind: "ranking" }, ["C"], 0, 3), "a");
    expect(r2).toEqual({ value: ["C", "A", "B"], set: true, advance: true });
    expect(keyAction(ctx({ kind: "ranking" }, ["C"], 0, 3), "c")).toBeNull();
    expect(keyAction(ctx({ kind: "ranking" }, ["C", "A", "B"], 0, 3), "Backspace")?.value).toEqual(["C", "A"]);
  });

  it("checklist digits score the current item and move on; advance when done", () => {
    const items = [
      { key: "agent", label: "Agent", max: 2 },
      { key: "scene", label: "Scene", max: 2 },
    ];
    const first = keyAction(ctx({ kind: "checklist", items }), "2");
    expect(first).toEqual({ value: { agent: 2 }, set: true, sub: 1, advance: false });
    const second = keyAction(ctx({ kind: "checklist", items }, { agent: 2 }, 1), "0");
    expect(second).toEqual({ value: { agent: 2, scene: 0 }, set: true, sub: 1, advance: true });
    expect(keyAction(ctx({ kind: "checklist", items }), "3")).toBeNull();
    expect(keyAction(ctx({ kind: "checklist", items }), "ArrowRight")).toEqual({ sub: 1 });
  });

  it("text questions enter editing; Delete clears any answer", () => {
    expect(keyAction(ctx({ kind: "text" }), "Enter")).toEqual({ edit: true });
    expect(keyAction(ctx({ kind: "criteria" }), "i")).toEqual({ edit: true });
    expect(keyAction(ctx({ kind: "binary" }, "yes"), "Delete")).toEqual({ value: undefined, set: true, advance: false });
  });
});

describe("list_edit keys", () => {
  const list = ["Is it red?", "Is it round?", "Is it big?"];
  const le = (current?: KeyContext["current"], sub = 0): KeyContext => ({ ...ctx({ kind: "list_edit", list: "checklist" }, current, sub), list });

  it("keeps, drops and rewords the current entry, then makes the next undecided one current", () => {
    const kept = keyAction(le(), "1");
    expect(kept).toEqual({ value: [{ op: "keep", from: 0 }], set: true, sub: 1, advance: false });
    const dropped = keyAction(le(kept!.value, 2), "2");
    expect(dropped).toEqual({ value: [{ op: "keep", from: 0 }, { op: "drop", from: 2 }], set: true, sub: 1, advance: false });
    const reworded = keyAction(le(dropped!.value, 1), "3");
    expect(reworded).toEqual({
      value: [{ op: "keep", from: 0 }, { op: "reword", from: 1, text: "Is it round?" }, { op: "drop", from: 2 }],
      set: true,
      sub: 1,
      edit: '[data-reword="1"]',
    });
  });

  it("is done once every entry is decided; added entries stay last", () => {
    const current = [{ op: "keep", from: 0 }, { op: "keep", from: 1 }, { op: "add", text: "Is it shiny?" }] as unknown as KeyContext["current"];
    expect(keyAction(le(current, 2), "2")).toEqual({
      value: [{ op: "keep", from: 0 }, { op: "keep", from: 1 }, { op: "drop", from: 2 }, { op: "add", text: "Is it shiny?" }],
      set: true,
      sub: 2,
      advance: true,
    });
  });

  it("moves between entries and types a new one", () => {
    expect(keyAction(le(undefined, 1), "ArrowRight")).toEqual({ sub: 2 });
    expect(keyAction(le(undefined, 0), "h")).toEqual({ sub: 0 });
    expect(keyAction(le(), "Enter")).toEqual({ edit: true });
    expect(keyAction(le(), "i")).toEqual({ edit: true });
    expect(keyAction(le(), "4")).toBeNull();
  });
});
