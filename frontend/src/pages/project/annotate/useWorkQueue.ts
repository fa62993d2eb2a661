import { useCallback, useEffect, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { ApiError, useApiClient } from "../../../api";
import { releaseOnLeave, useWorkflowApi } from "../../../api/workflow";
import type { Claim, FlagCategory, QueueStage, SubmitBody, SubmitResult } from "../../../api/workflowTypes";
import { clearLocalDraft, pruneLocalDrafts } from "./draftStore";
import { PROJECT_MEDIA_BASE } from "./mediaBase";
import { preloadClaim } from "./preload";
import { afterPaint } from "./progress";
import { newIdempotencyKey, withRetry } from "./retry";

export type QueueStatus = "loading" | "ready" | "empty" | "error";

export interface WorkQueue {
  status: QueueStatus;
  claim: Claim | null;
  error: unknown;
  /** performance.now() when the current claim was shown. */
  shownAt: number;
  /** A write is failing and being retried. */
  offline: boolean;
  busy: boolean;
  /**
   * Bumped each time the queue settles: an item (or the empty queue) is shown
   * and the claim ahead of it is done. Counts read then are consistent with
   * what this person holds.
   */
  settled: number;
  /** Items claimed ahead and held for this person beyond the one shown (0 or 1). */
  held: number;
  reload: () => void;
  /** Submits the current assignment and shows the next one; throws what the server refused. */
  submit: (body: SubmitBody) => Promise<SubmitResult | null>;
  skip: (reason: string) => Promise<void>;
  flag: (category: FlagCategory, reason: string) => Promise<void>;
}

/** A prefetched claim older than this is not trusted to still hold its lease; the queue is asked again. */
export const AHEAD_FRESH_MS = 5 * 60_000;
/** How long showing a prefetched item waits at most for its media to finish decoding. */
const AHEAD_MEDIA_WAIT_MS = 150;

/**
 * No draft was ever saved on the assignment (its version counts saves). A
 * prefilled draft (e.g. from a model's prediction) does not count as work.
 */
export const untouched = (claim: Claim) => claim.assignment.version === 0;

interface Ahead {
  /** The assignment shown when the next one was claimed ahead. */
  after: string;
  at: number;
  /** The next claim (null: nothing after the current one), its media loading. */
  result: Promise<{ claim: Claim | null; media: Promise<unknown> }>;
  /** The claim once the request answered (undefined while it is out). */
  claim?: Claim | null;
}

/**
 * One person's queue in one stage. The item after the current one is
 * claimed ahead (`queue/next` with `prefetch`) once the current one is on
 * screen, and its media are fetched and decoded meanwhile, so a submit only
 * waits for the server's acknowledgement before the next item shows. Without
 * a claim ahead (none left, too old, failed) the queue is asked after the
 * submit. A plain `next` returns the oldest open assignment, so a reload
 * resumes where the person was. When the person leaves (the hook unmounts, or
 * `pagehide`), the item claimed ahead is released if it has no saved draft,
 * so it goes back to the queue instead of waiting for its lease to run out.
 */
export function useWorkQueue(pid: string, stage: QueueStage): WorkQueue {
  const api = useWorkflowApi();
  const client = useApiClient();
  const queries = useQueryClient();
  const [state, setState] = useState<{ status: QueueStatus; claim: Claim | null; error: unknown; shownAt: number }>({
    status: "loading",
    claim: null,
    error: null,
    shownAt: 0,
  });
  const [offline, setOffline] = useState(false);
  const [busy, setBusy] = useState(false);
  const [settled, setSettled] = useState(0);
  const [held, setHeld] = useState(0);
  const busyRef = useRef(false);
  const alive = useRef(true);
  const ahead = useRef<Ahead | null>(null);
  /** Bumped when a page kept in the back/forward cache is shown again, to claim ahead anew. */
  const [woken, setWoken] = useState(0);

  /** Releases the claim held ahead (once known), unless the person saved a draft on it. */
  const releaseAhead = useCallback(() => {
    const a = ahead.current;
    ahead.current = null;
    if (!a) return;
    const release = (claim: Claim | null | undefined) => {
      if (claim && untouched(claim)) void releaseOnLeave(client, claim.assignment.id);
    };
    if (a.claim !== undefined) release(a.claim);
    else
      a.result.then(
        (r) => release(r.claim),
        () => undefined,
      );
  }, [client]);

  useEffect(() => {
    const onHide = () => {
      releaseAhead();
      setHeld(0);
    };
    const onShow = (e: PageTransitionEvent) => {
      if (e.persisted) setWoken((n) => n + 1);
    };
    window.addEventListener("pagehide", onHide);
    window.addEventListener("pageshow", onShow);
    return () => {
      window.removeEventListener("pagehide", onHide);
      window.removeEventListener("pageshow", onShow);
      releaseAhead();
    };
  }, [releaseAhead]);

  const show = useCallback((claim: Claim | null) => {
    if (!alive.current) return;
    setState({ status: claim ? "ready" : "empty", claim, error: null, shownAt: performance.now() });
    setHeld(0);
    if (!claim) setSettled((n) => n + 1);
  }, []);

  const fetchNext = useCallback(async () => {
    ahead.current = null;
    try {
      const claim = await withRetry(() => api.next(pid, stage), { onTrouble: setOffline });
      if (claim) await preloadClaim(claim, client, queries, PROJECT_MEDIA_BASE);
      show(claim);
    } catch (error) {
      if (alive.current) setState({ status: "error", claim: null, error, shownAt: 0 });
    }
  }, [api, client, queries, pid, stage, show]);

  useEffect(() => {
    alive.current = true;
    pruneLocalDrafts();
    void fetchNext();
    return () => {
      alive.current = false;
    };
  }, [fetchNext]);

  // Once an item is on screen, claim the one after it and load its media.
  const aid = state.claim?.assignment.id;
  useEffect(() => {
    if (!aid || ahead.current?.after === aid) return;
    return afterPaint(() => {
      if (!alive.current || ahead.current?.after === aid) return;
      const result = api.nextAhead(pid, stage).then((claim) => {
        const next = claim && claim.assignment.id !== aid ? claim : null;
        entry.claim = next;
        return { claim: next, media: next ? preloadClaim(next, client, queries, PROJECT_MEDIA_BASE, { decode: true, capMs: 5_000 }) : Promise.resolve() };
      });
      const entry: Ahead = { after: aid, at: performance.now(), result };
      ahead.current = entry;
      // A failed prefetch only means asking the queue after the submit.
      result
        .then(
          (r) => r.claim,
          () => null,
        )
        .then((next) => {
          if (!alive.current || ahead.current !== entry) return;
          setHeld(next ? 1 : 0);
          setSettled((n) => n + 1);
        });
    });
  }, [aid, api, client, queries, pid, stage, woken]);

  /** Shows the claim prefetched after `done`, if there is a usable one; false when the queue must be asked. */
  const showAhead = useCallback(
    async (done: string): Promise<boolean> => {
      const a = ahead.current;
      ahead.current = null;
      if (!a || a.after !== done || performance.now() - a.at > AHEAD_FRESH_MS) return false;
      try {
        const { claim, media } = await a.result;
        if (!claim) return false;
        await Promise.race([media, new Promise((r) => setTimeout(r, AHEAD_MEDIA_WAIT_MS))]);
        // The person left while the submit was out: give the item back rather than hold it.
        if (!alive.current) {
          if (untouched(claim)) void releaseOnLeave(client, claim.assignment.id);
          return true;
        }
        show(claim);
        return true;
      } catch {
        return false;
      }
    },
    [show, client],
  );

  /** Runs one write on the current assignment, then moves to the next item. */
  const act = useCallback(
    async <T>(write: (aid: string) => Promise<T>): Promise<T | null> => {
      const aid = state.claim?.assignment.id;
      if (!aid || busyRef.current) return null;
      busyRef.current = true;
      setBusy(true);
      try {
        let result: T;
        try {
          result = await withRetry(() => write(aid), { onTrouble: setOffline });
        } catch (err) {
          // Someone else's submit of this very assignment already went through: move on.
          if (!(err instanceof ApiError && err.code === "already_submitted")) throw err;
          result = null as T;
        }
        clearLocalDraft(aid);
        if (!(await showAhead(aid))) await fetchNext();
        return result;
      } finally {
        busyRef.current = false;
        setBusy(false);
      }
    },
    [state.claim, fetchNext, showAhead],
  );

  const submit = useCallback(
    (body: SubmitBody) => {
      const key = newIdempotencyKey();
      return act((aid) => api.submit(aid, body, key));
    },
    [act, api],
  );
  const skip = useCallback(async (reason: string) => void (await act((aid) => api.skip(aid, reason))), [act, api]);
  const flag = useCallback(
    async (category: FlagCategory, reason: string) => void (await act((aid) => api.flag(aid, category, reason))),
    [act, api],
  );
  const reload = useCallback(() => {
    setState((s) => ({ ...s, status: "loading" }));
    void fetchNext();
  }, [fetchNext]);

  return { ...state, offline, busy, settled, held, reload, submit, skip, flag };
}
