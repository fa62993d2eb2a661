// The state of one person's work session in one stage, as a reducer: which
// claim is shown, how the queue around it stands, and the last refusal.
import type { AnswerErrors, Claim } from "../../../api";

export type QueueStatus = "loading" | "ready" | "empty" | "error";

export interface SessionState {
  status: QueueStatus;
  claim: Claim | null;
  error: unknown;
  /** performance.now() when the current claim was shown. */
  shownAt: number;
  /** Items claimed ahead and held for this person beyond the one shown (0 or 1). */
  held: number;
  /** The claim ahead, once known: its page is rendered hidden so showing it is quick. */
  next: Claim | null;
  /**
   * Bumped each time the queue settles: an item (or the empty queue) is shown
   * and the claim ahead of it is done. Counts read then are consistent with
   * what this person holds.
   */
  settled: number;
  /** A write on the shown assignment is out. */
  busy: boolean;
  /**
   * The server refused a write on this assignment: for a reason the form cannot show, or,
   * for a submit sent while the next item was already shown, with the problems per question
   * (`fields`) that its form shows once it is back on screen.
   */
  problem: { aid: string; error: unknown; fields?: AnswerErrors } | null;
}

export type SessionAction =
  | { type: "loading" }
  /** Shows a claim (null: the queue is empty) and starts it afresh. */
  | { type: "reset"; claim: Claim | null; at: number }
  | { type: "failed"; error: unknown }
  /** The claim ahead of the shown item is settled: held (1) or none (0), and which it is. */
  | { type: "ahead"; held: number; next?: Claim | null }
  /** The claim ahead was given back (the page is being left). */
  | { type: "released" }
  | { type: "sending" }
  | { type: "sent" }
  | { type: "refused"; aid: string; error: unknown }
  /**
   * A submit sent behind the next item was refused: its claim is shown again with the
   * problem; the item that was shown instead is claimed ahead of it again.
   */
  | { type: "back"; claim: Claim; at: number; error: unknown; fields?: AnswerErrors };

export const initialSession: SessionState = {
  status: "loading",
  claim: null,
  error: null,
  shownAt: 0,
  held: 0,
  next: null,
  settled: 0,
  busy: false,
  problem: null,
};

export function sessionReducer(s: SessionState, a: SessionAction): SessionState {
  switch (a.type) {
    case "loading":
      return { ...s, status: "loading" };
    case "reset":
      return {
        ...s,
        status: a.claim ? "ready" : "empty",
        claim: a.claim,
        error: null,
        shownAt: a.at,
        held: 0,
        next: null,
        problem: null,
        // An empty queue has nothing to claim ahead: it is settled at once.
        settled: a.claim ? s.settled : s.settled + 1,
      };
    case "failed":
      return { ...s, status: "error", claim: null, error: a.error, shownAt: 0, next: null };
    case "ahead":
      return { ...s, held: a.held, next: a.next ?? null, settled: s.settled + 1 };
    case "released":
      return { ...s, held: 0, next: null };
    case "sending":
      return { ...s, busy: true, problem: null };
    case "sent":
      return { ...s, busy: false };
    case "refused":
      return { ...s, problem: { aid: a.aid, error: a.error } };
    case "back":
      return {
        ...s,
        status: "ready",
        claim: a.claim,
        error: null,
        shownAt: a.at,
        held: 0,
        next: null,
        problem: { aid: a.claim.assignment.id, error: a.error, fields: a.fields },
      };
  }
}
