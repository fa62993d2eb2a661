import { useCallback, useEffect, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { ApiError, useApiClient } from "../../../api";
import { useWorkflowApi } from "../../../api/workflow";
import type { Claim, FlagCategory, QueueStage, SubmitBody, SubmitResult } from "../../../api/workflowTypes";
import { clearLocalDraft, pruneLocalDrafts } from "./draftStore";
import { PROJECT_MEDIA_BASE } from "./mediaBase";
import { preloadClaim } from "./preload";
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
  /** Submits acknowledged in this session; changes once the item after them is shown. */
  submits: number;
  reload: () => void;
  /** Submits the current assignment and shows the next one; throws what the server refused. */
  submit: (body: SubmitBody) => Promise<SubmitResult | null>;
  skip: (reason: string) => Promise<void>;
  flag: (category: FlagCategory, reason: string) => Promise<void>;
}

/**
 * One person's queue in one stage: claims work, submits it and, as soon as a
 * submit is acknowledged, claims the next item and preloads its media before
 * showing it. Calling next while an assignment is open returns that same one,
 * so a reload resumes where the person was.
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
  const [submits, setSubmits] = useState(0);
  const busyRef = useRef(false);
  const alive = useRef(true);

  const fetchNext = useCallback(async () => {
    try {
      const claim = await withRetry(() => api.next(pid, stage), { onTrouble: setOffline });
      if (claim) await preloadClaim(claim, client, queries, PROJECT_MEDIA_BASE);
      if (!alive.current) return;
      setState({ status: claim ? "ready" : "empty", claim, error: null, shownAt: performance.now() });
    } catch (error) {
      if (alive.current) setState({ status: "error", claim: null, error, shownAt: 0 });
    }
  }, [api, client, queries, pid, stage]);

  useEffect(() => {
    alive.current = true;
    pruneLocalDrafts();
    void fetchNext();
    return () => {
      alive.current = false;
    };
  }, [fetchNext]);

  /** Runs one write on the current assignment, then moves to the next item. */
  const act = useCallback(
    async <T>(write: (aid: string) => Promise<T>, counts: boolean): Promise<T | null> => {
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
        await fetchNext();
        // Batched with showing the next item, so whatever reacts to it runs after that.
        if (counts) setSubmits((n) => n + 1);
        return result;
      } finally {
        busyRef.current = false;
        setBusy(false);
      }
    },
    [state.claim, fetchNext],
  );

  const submit = useCallback(
    (body: SubmitBody) => {
      const key = newIdempotencyKey();
      return act((aid) => api.submit(aid, body, key), true);
    },
    [act, api],
  );
  const skip = useCallback(async (reason: string) => void (await act((aid) => api.skip(aid, reason), false)), [act, api]);
  const flag = useCallback(
    async (category: FlagCategory, reason: string) => void (await act((aid) => api.flag(aid, category, reason), false)),
    [act, api],
  );
  const reload = useCallback(() => {
    setState((s) => ({ ...s, status: "loading" }));
    void fetchNext();
  }, [fetchNext]);

  return { ...state, offline, busy, submits, reload, submit, skip, flag };
}
