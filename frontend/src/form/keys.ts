// Pure key → answer logic for the focused question; the form applies the
// result. Keeping it pure makes every shortcut testable without a DOM.
import { forKind } from "./kinds";
import { slotLabel } from "./schema";
import type { AnswerValue, ChecklistAnswer, Kind, ListEdit, Question } from "../api";

export interface KeyContext {
  q: Question;
  current: AnswerValue | undefined;
  /** Active sub-item of a checklist. */
  sub: number;
  /** Number of candidates a ranking orders. */
  slots: number;
  /** The list a list_edit question edits. */
  list?: string[];
}

export interface KeyResult {
  /** New answer; undefined with set=true clears it. */
  value?: AnswerValue;
  set?: boolean;
  /** Move to the next question after applying. */
  advance?: boolean;
  /** New active checklist sub-item. */
  sub?: number;
  /** Focus the question's text field (true), or the field this selector names once the change has rendered. */
  edit?: boolean | string;
}

/** The digit of a key, or null: "1".."9" and "0". */
function digit(key: string): number | null {
  return key.length === 1 && key >= "0" && key <= "9" ? Number(key) : null;
}

/** Maps a digit key to a likert value: 1–9 as themselves, 0 as 10 on 1–10 scales. */
export function likertDigit(key: string, min: number, max: number): number | null {
  const d = digit(key);
  if (d === null) return null;
  if (d === 0 && max === 10 && min >= 1) return 10;
  return d >= min && d <= max ? d : null;
}

/** Maps a digit key to an option position: 1 → 0, …, 9 → 8, 0 → 9. */
export function optionDigit(key: string, count: number): number | null {
  const d = digit(key);
  if (d === null) return null;
  const i = d === 0 ? 9 : d - 1;
  return i < count ? i : null;
}

const set = (value: AnswerValue | undefined, advance = false): KeyResult => ({ value, set: true, advance });

/** What a key does to a focused question of the kind, or null when it does nothing. */
type KeyHandler = (ctx: KeyContext, key: string) => KeyResult | null;

/** Enter or i starts typing. */
const typing: KeyHandler = (_ctx, key) => (key === "Enter" || key === "i" ? { edit: true } : null);

/** The keys of each kind (the legend in ShortcutLegend.tsx lists them). */
const KEYS: Record<Kind, KeyHandler> = {
  binary: ({ q }, key) => binaryKey(q, key),
  likert: likertKey,
  choice: choiceKey,
  multi_choice: multiKey,
  pairwise: ({ q }, key) => pairwiseKey(q, key),
  ranking: rankingKey,
  checklist: checklistKey,
  list_edit: listEditKey,
  text: typing,
  criteria: typing,
};

/** What a key does to the focused question, or null when it does nothing. */
export function keyAction(ctx: KeyContext, key: string): KeyResult | null {
  const { q } = ctx;
  // note: a ranking undoes its own last slot with Backspace
  if ((key === "Delete" || key === "Backspace") && q.kind !== "ranking") return set(undefined);
  return forKind(KEYS, q.kind)?.(ctx, key) ?? null;
}

function binaryKey(q: Question, key: string): KeyResult | null {
  const k = key.toLowerCase();
  if (k === "y") return set("yes", true);
  if (k === "n") return set("no", true);
  if (k === "a" && q.allow_na) return set("na", true);
  return null;
}

function likertKey({ q, current }: KeyContext, key: string): KeyResult | null {
  const min = q.min ?? 1;
  const max = q.max ?? 5;
  const v = likertDigit(key, min, max);
  if (v !== null) return set(v, true);
  if (key.toLowerCase() === "a" && q.allow_na) return set("na", true);
  const step = key === "ArrowLeft" || key === "h" ? -1 : key === "ArrowRight" || key === "l" ? 1 : 0;
  if (!step) return null;
  const from = typeof current === "number" ? current : step > 0 ? min - 1 : max + 1;
  return set(Math.min(max, Math.max(min, from + step)));
}

function choiceKey({ q, current }: KeyContext, key: string): KeyResult | null {
  const opts = q.options ?? [];
  const i = optionDigit(key, opts.length);
  if (i !== null) return set(opts[i].key, true);
  const step = key === "ArrowLeft" || key === "h" ? -1 : key === "ArrowRight" || key === "l" ? 1 : 0;
  if (!step || opts.length === 0) return null;
  const at = opts.findIndex((o) => o.key === current);
  const next = at < 0 ? (step > 0 ? 0 : opts.length - 1) : (at + step + opts.length) % opts.length;
  return set(opts[next].key);
}

function multiKey({ q, current }: KeyContext, key: string): KeyResult | null {
  const opts = q.options ?? [];
  const i = optionDigit(key, opts.length);
  if (i === null) return null;
  const chosen = Array.isArray(current) ? current : [];
  const k = opts[i].key;
  const next = chosen.includes(k) ? chosen.filter((c) => c !== k) : [...chosen, k];
  // Keep schema order so answers read the same however they were typed.
  return set(opts.map((o) => o.key).filter((o) => next.includes(o)));
}

function pairwiseKey(q: Question, key: string): KeyResult | null {
  const k = key.toLowerCase();
  if (k === "a" || key === "1") return set("A", true);
  if (k === "b" || key === "2") return set("B", true);
  if ((k === "t" || key === "=" || key === "3") && q.allow_tie) return set("tie", true);
  return null;
}

function rankingKey({ current, slots }: KeyContext, key: string): KeyResult | null {
  const ranked = Array.isArray(current) ? current : [];
  if (key === "Backspace") return set(ranked.length > 1 ? ranked.slice(0, -1) : undefined);
  if (key === "Delete") return set(undefined);
  const k = key.length === 1 ? key.toUpperCase() : "";
  const d = digit(key);
  const slot = d !== null && d >= 1 && d <= slots ? slotLabel(d - 1) : k;
  const idx = slot.length === 1 ? slot.charCodeAt(0) - 65 : -1;
  if (idx < 0 || idx >= slots || ranked.includes(slot)) return null;
  let next = [...ranked, slot];
  if (next.length === slots - 1) {
    // The last one is implied.
    const rest = Array.from({ length: slots }, (_, i) => slotLabel(i)).find((s) => !next.includes(s));
    if (rest) next = [...next, rest];
  }
  return set(next, next.length === slots);
}

function checklistKey({ q, current, sub }: KeyContext, key: string): KeyResult | null {
  const items = q.items ?? [];
  if (items.length === 0) return null;
  if (key === "ArrowLeft" || key === "h") return { sub: Math.max(0, sub - 1) };
  if (key === "ArrowRight" || key === "l") return { sub: Math.min(items.length - 1, sub + 1) };
  const d = digit(key);
  const item = items[Math.min(sub, items.length - 1)];
  if (d === null || d > item.max) return null;
  const scores: ChecklistAnswer = { ...(current && typeof current === "object" && !Array.isArray(current) ? current : {}) };
  scores[item.key] = d;
  const done = items.every((it) => scores[it.key] !== undefined);
  const nextSub = items.findIndex((it, i) => i > sub && scores[it.key] === undefined);
  const firstOpen = items.findIndex((it) => scores[it.key] === undefined);
  const sub2 = nextSub >= 0 ? nextSub : firstOpen >= 0 ? firstOpen : sub;
  return { value: scores, set: true, sub: sub2, advance: done && sub >= items.length - 1 };
}

/** The decision keys of a list_edit entry: 1 keep, 2 drop, 3 reword. */
const LIST_OPS: Record<string, ListEdit["op"]> = { "1": "keep", "2": "drop", "3": "reword" };

/**
 * A list_edit question works like a checklist: ← → (h l) move between the
 * drafted entries, 1 keeps, 2 drops and 3 rewords the current one (its new
 * wording field takes the focus), then the next undecided entry is current;
 * Enter or i types a new entry. The question is done once every entry is decided.
 */
function listEditKey({ current, sub, list = [] }: KeyContext, key: string): KeyResult | null {
  if (key === "Enter" || key === "i") return { edit: true };
  if (list.length === 0) return null;
  if (key === "ArrowLeft" || key === "h") return { sub: Math.max(0, sub - 1) };
  if (key === "ArrowRight" || key === "l") return { sub: Math.min(list.length - 1, sub + 1) };
  const op = LIST_OPS[key];
  if (!op) return null;
  const at = Math.min(sub, list.length - 1);
  const edits: ListEdit[] = Array.isArray(current) ? (current as unknown as ListEdit[]).filter((e) => e && typeof e === "object" && "op" in e) : [];
  const decided = new Map(edits.filter((e) => e.op !== "add").map((e) => [e.from, e]));
  const prev = decided.get(at);
  decided.set(at, op === "reword" ? { op, from: at, text: prev?.op === "reword" ? prev.text : list[at] } : { op, from: at });
  const next = [...list.map((_, i) => decided.get(i)).filter((e): e is ListEdit => !!e), ...edits.filter((e) => e.op === "add")];
  const open = (from: number) => list.findIndex((_, i) => i > from && !decided.has(i));
  const nextSub = open(at) >= 0 ? open(at) : open(-1) >= 0 ? open(-1) : at;
  const value = next as unknown as AnswerValue;
  if (op === "reword") return { value, set: true, sub: nextSub, edit: `[data-reword="${at}"]` };
  return { value, set: true, sub: nextSub, advance: decided.size === list.length && open(-1) < 0 };
}
