// The latest answers of each open assignment, kept in localStorage so a
// reload or a network hiccup loses nothing that was typed.
import type { Answers } from "../../../api";

const PREFIX = "arbiter.draft.";

export interface LocalDraft {
  answers: Answers;
  /** When they were typed (ms since the epoch). */
  at: number;
  /** Whether the server has confirmed this exact state. */
  saved: boolean;
}

export function readLocalDraft(aid: string, storage: Storage = localStorage): LocalDraft | null {
  try {
    const raw = storage.getItem(PREFIX + aid);
    if (!raw) return null;
    const d = JSON.parse(raw) as LocalDraft;
    return d && typeof d === "object" && d.answers && typeof d.answers === "object" ? d : null;
  } catch {
    return null;
  }
}

export function writeLocalDraft(aid: string, d: LocalDraft, storage: Storage = localStorage) {
  try {
    storage.setItem(PREFIX + aid, JSON.stringify(d));
  } catch {
    // Storage full or disabled: the server copy still gets saved.
  }
}

export function clearLocalDraft(aid: string, storage: Storage = localStorage) {
  try {
    storage.removeItem(PREFIX + aid);
  } catch {
    // Nothing to do.
  }
}

/** Drops drafts older than a week (assignments that were never reopened). */
export function pruneLocalDrafts(now = Date.now(), storage: Storage = localStorage) {
  try {
    for (let i = storage.length - 1; i >= 0; i--) {
      const k = storage.key(i);
      if (!k?.startsWith(PREFIX)) continue;
      const d = readLocalDraft(k.slice(PREFIX.length), storage);
      if (!d || now - d.at > 7 * 24 * 3600_000) storage.removeItem(k);
    }
  } catch {
    // Nothing to do.
  }
}

/** The answers to start from: this browser's copy when it has one, else the server's draft. */
export function startingAnswers(aid: string, serverDraft: Answers | null | undefined): Answers {
  return readLocalDraft(aid)?.answers ?? serverDraft ?? {};
}
