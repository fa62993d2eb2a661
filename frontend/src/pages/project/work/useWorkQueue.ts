// One person's queue in one stage: the claim on screen, the one claimed
// ahead, and the writes that move from one to the next.
import { useCallback, useEffect, useLayoutEffect, useReducer, useRef } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiError, useApiClient, type AnswerErrors, type Claim, type FlagCategory, type QueueStage, type SubmitBody } from "../../../api";
import { releaseOnLeave, useWorkflowApi, type WorkflowApi } from "../../../api/workflow";
import { clearLocalDraft, pruneLocalDrafts } from "./draftStore";
import { PROJECT_MEDIA_BASE } from "./mediaBase";
import { preloadClaim } from "./preload";
import { keepTrying, newIdempotencyKey } from "./retry";
import { initialSession, sessionReducer, type SessionState } from "./session";
import { untouched, useClaimAhead } from "./useClaimAhead";

/** A write that finishes the assignment on screen. */
type Write = { aid: string } & (
  | { kind: "submit"; body: SubmitBody; key: string }
  | { kind: "skip"; reason: string }
  | { kind: "flag"; category: FlagCategory; reason: string }
);

/** Whether a write's answer says the item's next pass opened (a submit of a pass that is not the last). */
function opensPass(res: unknown): boolean {
  return typeof res === "object" && res !== null && "next_pass" in res && Boolean((res as { next_pass?: unknown }).next_pass);
}

function send(api: WorkflowApi, pid: string, w: Write): Promise<unknown> {
  switch (w.kind) {
    case "submit":
      return api.submit(pid, w.aid, w.body, w.key);
    case "skip":
      return api.skip(pid, w.aid, w.reason);
    case "flag":
      return api.flag(pid, w.aid, w.category, w.reason);
  }
}

/** Whether a claim's form has a pass after the one shown (its submit opens that pass, not the next item). */
export function hasMorePasses(claim: Claim | null): boolean {
  const pass = claim?.item.pass;
  return !!pass && pass.number < pass.count;
}

/** The problems per question of a refusal, when it is one about the answers. */
function fieldsOf(err: unknown): AnswerErrors | undefined {
  return err instanceof ApiError && err.code === "validation_failed" ? err.problems() : undefined;
}

/** How a submit ended: sent (the next item is on its way), or refused — with the problems per question when the form should show them. */
export type Outcome = { ok: true } | { ok: false; fields?: AnswerErrors };

export interface WorkQueue extends SessionState {
  /** A write or claim is failing and being retried, or waiting for the network. */
  offline: boolean;
  /** Milliseconds since the shown item was shown; a stable function, so pages rendered ahead need not re-render when shown. */
  elapsed: () => number;
  reload: () => void;
  /**
   * Submits and moves to the next item. A `validation_failed` refusal comes
   * back as `fields` when `fieldsFor` accepts its problems (by default always);
   * any other refusal is kept as the session's `problem`.
   */
  submit: (aid: string, body: SubmitBody, fieldsFor?: (fields: AnswerErrors) => boolean) => Promise<Outcome>;
  skip: (aid: string, reason: string) => Promise<boolean>;
  flag: (aid: string, category: FlagCategory, reason: string) => Promise<boolean>;
}

/**
 * The item after the current one is claimed ahead once the current one is on
 * screen (useClaimAhead), so a submit shows it at once and finishes behind
 * it: the submit keeps trying through network failures with its idempotency
 * key, the answers stay in this browser until it is acknowledged, and the next
 * write waits for it. Should the server refuse it, its item comes back on
 * screen with the refusal (and its problems on the questions); the item shown
 * meanwhile is claimed ahead of it again, its answers kept. Without a claim
 * ahead (none left, too old, failed), or when the submit opens the item's next
 * pass, the submit is waited for and the queue asked after it. A plain `next`
 * returns the oldest open assignment, so a reload resumes where the person
 * was. Claims and writes are TanStack mutations that keep trying through
 * network failures (retry.ts).
 */
export function useWorkQueue(pid: string, stage: QueueStage): WorkQueue {
  const api = useWorkflowApi();
  const client = useApiClient();
  const queries = useQueryClient();
  const [state, dispatch] = useReducer(sessionReducer, initialSession);
  const alive = useRef(true);
  const shownAt = useRef(0);
  useLayoutEffect(() => {
    shownAt.current = state.shownAt;
  }, [state.shownAt]);
  const elapsed = useCallback(() => performance.now() - shownAt.current, []);
  const sending = useRef(false);
  /** The submit sent behind the item now shown, until it settles: true when it went through. */
  const behind = useRef<Promise<boolean> | null>(null);
  const shownClaim = useRef<Claim | null>(null);
  useLayoutEffect(() => {
    shownClaim.current = state.claim;
  }, [state.claim]);
  const claimNext = useMutation({ mutationFn: () => api.next(pid, stage), ...keepTrying });
  const write = useMutation({ mutationFn: (w: Write) => send(api, pid, w), ...keepTrying });
  const { take, forget, peek } = useClaimAhead({
    pid,
    stage,
    shown: state.claim?.assignment.id,
    onSettled: (held, next) => dispatch({ type: "ahead", held, next }),
    onReleased: () => dispatch({ type: "released" }),
  });

  const claim = claimNext.mutateAsync;
  const fetchNext = useCallback(async () => {
    forget();
    try {
      const next = await claim();
      if (next) await preloadClaim(next, client, queries, PROJECT_MEDIA_BASE);
      if (alive.current) dispatch({ type: "reset", claim: next, at: performance.now() });
    } catch (error) {
      if (alive.current) dispatch({ type: "failed", error });
    }
  }, [claim, forget, client, queries]);

  /** Shows the next pass of the item on screen: a plain claim hands back the oldest open assignment, this one; the claim ahead is kept for after its last pass. */
  const showNextPass = useCallback(
    async (aid: string) => {
      const same = await claim();
      if (same) await preloadClaim(same, client, queries, PROJECT_MEDIA_BASE);
      if (!alive.current) return;
      dispatch({ type: "reset", claim: same, at: performance.now() });
      // The item claimed ahead stays held for after the last pass (if its claim is still out, it settles by itself).
      const held = same?.assignment.id === aid ? peek(aid) : undefined;
      if (held !== undefined) dispatch({ type: "ahead", held: held ? 1 : 0, next: held });
    },
    [claim, client, queries, peek],
  );

  useEffect(() => {
    alive.current = true;
    pruneLocalDrafts();
    void fetchNext();
    return () => {
      alive.current = false;
    };
  }, [fetchNext]);

  const run = write.mutateAsync;
  /**
   * Sends a submit while the next item is already shown; settles true once it went through
   * (or someone else's submit of it did), false when refused, after bringing its item back.
   */
  const sendBehind = useCallback(
    (w: Write, shown: Claim): Promise<boolean> =>
      run(w).then(
        () => {
          clearLocalDraft(w.aid);
          behind.current = null;
          return true;
        },
        (err) => {
          behind.current = null;
          if (err instanceof ApiError && err.code === "already_submitted") {
            clearLocalDraft(w.aid);
            return true;
          }
          if (alive.current) dispatch({ type: "back", claim: shown, at: performance.now(), error: err, fields: fieldsOf(err) });
          return false;
        },
      ),
    [run],
  );
  /** Sends one write, then shows the claim ahead or asks the queue; false when another write is still out. */
  const act = useCallback(
    async (w: Write): Promise<boolean> => {
      if (sending.current) return false;
      sending.current = true;
      dispatch({ type: "sending" });
      try {
        // A submit sent behind this item must be through first; refused, its item is back instead.
        if (behind.current && !(await behind.current)) return false;
        const shown = shownClaim.current;
        if (w.kind === "submit" && shown?.assignment.id === w.aid && !hasMorePasses(shown) && peek(w.aid)) {
          const next = await take(w.aid);
          if (next && alive.current) {
            behind.current = sendBehind(w, shown);
            dispatch({ type: "reset", claim: next, at: performance.now() });
            return true;
          }
        }
        // Someone else's submit of this very assignment already went through: move on.
        const res = await run(w).catch((err) => {
          if (!(err instanceof ApiError && err.code === "already_submitted")) throw err;
        });
        clearLocalDraft(w.aid);
        // A pass that is not the last: the same item's next pass, from the server (it alone holds its inputs).
        if (opensPass(res)) {
          await showNextPass(w.aid);
          return true;
        }
        const next = await take(w.aid);
        // The person left while the write was out: give the item back rather than hold it.
        if (!alive.current) {
          if (next && untouched(next)) void releaseOnLeave(client, pid, next.assignment.id);
        } else if (next) dispatch({ type: "reset", claim: next, at: performance.now() });
        else await fetchNext();
        return true;
      } finally {
        sending.current = false;
        dispatch({ type: "sent" });
      }
    },
    [run, take, peek, sendBehind, client, pid, fetchNext, showNextPass],
  );

  /** Runs a write; a refusal becomes the session's problem unless the form shows it. */
  const attempt = useCallback(
    async (w: Write, fieldsFor: (fields: AnswerErrors) => boolean = () => false): Promise<Outcome> => {
      try {
        return (await act(w)) ? { ok: true } : { ok: false };
      } catch (err) {
        const fields = fieldsOf(err);
        if (fields && fieldsFor(fields)) return { ok: false, fields };
        dispatch({ type: "refused", aid: w.aid, error: err });
        return { ok: false };
      }
    },
    [act],
  );

  const submit = useCallback(
    (aid: string, body: SubmitBody, fieldsFor: (fields: AnswerErrors) => boolean = () => true) =>
      attempt({ kind: "submit", aid, body, key: newIdempotencyKey() }, fieldsFor),
    [attempt],
  );
  const skip = useCallback(async (aid: string, reason: string) => (await attempt({ kind: "skip", aid, reason })).ok, [attempt]);
  const flag = useCallback(
    async (aid: string, category: FlagCategory, reason: string) => (await attempt({ kind: "flag", aid, category, reason })).ok,
    [attempt],
  );
  const reload = useCallback(() => {
    dispatch({ type: "loading" });
    void fetchNext();
  }, [fetchNext]);

  const troubled = (m: { isPending: boolean; isPaused: boolean; failureCount: number }) => m.isPending && (m.isPaused || m.failureCount > 0);
  return { ...state, offline: troubled(claimNext) || troubled(write), elapsed, reload, submit, skip, flag };
}
