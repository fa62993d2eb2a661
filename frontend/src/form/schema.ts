// Helpers over the task schema (the types themselves belong to the API
// contract, src/api/taskSchema.ts).
import type { Candidate, Input, Question, Schema } from "../api";

/** The slot letter for position i (0 → "A"). */
export function slotLabel(i: number): string {
  return String.fromCharCode(65 + i);
}

/** The candidates input a pairwise or ranking question compares. */
export function candidatesInput(schema: Schema, q: Question): Input | undefined {
  if (q.candidates) return schema.inputs.find((i) => i.name === q.candidates && i.type === "candidates");
  const all = schema.inputs.filter((i) => i.type === "candidates");
  return all.length === 1 ? all[0] : undefined;
}

/** Whether question q may see input name (no restriction means all). */
export function questionSees(q: Question | undefined, name: string): boolean {
  return !q || !q.inputs || q.inputs.length === 0 || q.inputs.includes(name);
}

/** Inputs an annotator is shown: hidden ones are left out. */
export function visibleInputs(schema: Schema): Input[] {
  return schema.inputs.filter((i) => !i.hidden);
}

/** The candidates of an item value, or [] when it is not a list. */
export function asCandidates(value: unknown): Candidate[] {
  return Array.isArray(value) ? (value as Candidate[]) : [];
}
