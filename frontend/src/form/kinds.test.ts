import { describe, expect, it } from "vitest";
import type { Question, Schema } from "../api";
import { answerText } from "../pages/project/review/answerText";
import { checkAnswer } from "./answers";
import { keyAction } from "./keys";
import { KIND_TRAITS, forKind, traitsOf } from "./kinds";

const schema: Schema = { version: 1, inputs: [], questions: [] };
const unknown = { key: "q", kind: "sketch", label: "Draw it" } as unknown as Question;

describe("tables by kind", () => {
  it("give nothing for a kind this UI does not know, even one named like an object's own property", () => {
    expect(forKind(KIND_TRAITS, "sketch")).toBeUndefined();
    expect(forKind(KIND_TRAITS, "constructor")).toBeUndefined();
    expect(forKind(KIND_TRAITS, "text")).toBe(KIND_TRAITS.text);
  });

  it("treat an unknown kind as plain: Enter submits, auto-advance stops on it", () => {
    expect(traitsOf("sketch")).toEqual({ typed: false, freeText: false, itemized: false, compares: false });
    expect(traitsOf("list_edit").typed).toBe(true);
    expect(traitsOf("checklist").itemized).toBe(true);
  });

  it("answer an unknown kind as before: refused by the check, shown as given, keys only clear it", () => {
    expect(checkAnswer(schema, unknown, "x")).toEqual({ code: "invalid_kind", message: "Unknown question kind." });
    expect(answerText(unknown, ["a", "b"])).toBe('["a","b"]');
    expect(keyAction({ q: unknown, current: "x", sub: 0, slots: 2 }, "y")).toBeNull();
    expect(keyAction({ q: unknown, current: "x", sub: 0, slots: 2 }, "Delete")).toEqual({ value: undefined, set: true, advance: false });
  });
});
