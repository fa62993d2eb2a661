// What the form needs to know of each question kind beyond its widget
// (questions/QuestionBody.tsx), its checks (answers.ts), its keys (keys.ts)
// and its legend (ShortcutLegend.tsx). Every table here and there is a
// Record<Kind, …>, so a kind added to the contract does not compile until
// each of them says what the kind does.
import type { Kind } from "../api";

/** How the form treats the questions of one kind. */
export interface KindTraits {
  /** Answered by typing: Enter starts typing rather than submitting the form. */
  typed: boolean;
  /** Free text that auto-advance passes over when it is optional (reached with j/k, Tab or a click). */
  freeText: boolean;
  /** Scored item by item (a checklist): the first item is current when the question is reached. */
  itemized: boolean;
  /** Compares the candidates of a candidates input, which the inputs pane marks. */
  compares: boolean;
}

const plain: KindTraits = { typed: false, freeText: false, itemized: false, compares: false };

export const KIND_TRAITS: Record<Kind, KindTraits> = {
  binary: plain,
  likert: plain,
  choice: plain,
  multi_choice: plain,
  pairwise: { ...plain, compares: true },
  ranking: { ...plain, compares: true },
  checklist: { ...plain, itemized: true },
  text: { ...plain, typed: true, freeText: true },
  criteria: { ...plain, typed: true, freeText: true },
  list_edit: { ...plain, typed: true },
};

/**
 * The entry of a kind in a table by kind, or undefined for a kind this UI
 * does not know (a newer server's): the caller says what happens then.
 */
export function forKind<V>(table: Record<Kind, V>, kind: string): V | undefined {
  return Object.hasOwn(table, kind) ? table[kind as Kind] : undefined;
}

/** The traits of a kind; a kind this UI does not know has none. */
export function traitsOf(kind: string): KindTraits {
  return forKind(KIND_TRAITS, kind) ?? plain;
}
