// The item after the one on screen, claimed ahead (`queue/next` with
// `prefetch`) with its media fetched and decoded, and given back when the
// person leaves.
import { useCallback, useEffect, useEffectEvent, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useApiClient, type Claim, type QueueStage } from "../../../api";
import { releaseOnLeave, useWorkflowApi } from "../../../api/workflow";
import { PROJECT_MEDIA_BASE } from "./mediaBase";
import { preloadClaim } from "./preload";
import { afterPaint } from "./progress";

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

interface Options {
  pid: string;
  stage: QueueStage;
  /** The assignment on screen. */
  shown: string | undefined;
  /** The claim ahead of `shown` is settled: whether one is held (1) or not (0), and which. */
  onSettled: (held: number, next: Claim | null) => void;
  /** The claim ahead was given back because the page is being hidden. */
  onReleased: () => void;
}

/**
 * Once `shown` is on screen (after the browser painted it), claims the item
 * after it and loads its media. The claim ahead is released — unless a draft
 * was saved on it — when the hook unmounts or the page is hidden
 * (`pagehide`), and claimed anew when a page kept in the back/forward cache is
 * shown again.
 */
export function useClaimAhead({ pid, stage, shown, onSettled, onReleased }: Options) {
  const api = useWorkflowApi();
  const client = useApiClient();
  const queries = useQueryClient();
  const ahead = useRef<Ahead | null>(null);
  const [woken, setWoken] = useState(0);
  const settled = useEffectEvent(onSettled);
  const released = useEffectEvent(onReleased);

  /** Releases the claim held ahead (once known), unless the person saved a draft on it. */
  const release = useCallback(() => {
    const a = ahead.current;
    ahead.current = null;
    if (!a) return;
    const give = (claim: Claim | null | undefined) => {
      if (claim && untouched(claim)) void releaseOnLeave(client, pid, claim.assignment.id);
    };
    if (a.claim !== undefined) give(a.claim);
    else a.result.then((r) => give(r.claim), () => undefined);
  }, [client, pid]);

  useEffect(() => {
    const onHide = () => {
      release();
      released();
    };
    const onShow = (e: PageTransitionEvent) => e.persisted && setWoken((n) => n + 1);
    window.addEventListener("pagehide", onHide);
    window.addEventListener("pageshow", onShow);
    return () => {
      window.removeEventListener("pagehide", onHide);
      window.removeEventListener("pageshow", onShow);
      release();
    };
  }, [release]);

  useEffect(() => {
    if (!shown || ahead.current?.after === shown) return;
    return afterPaint(() => {
      if (ahead.current?.after === shown) return;
      const entry: Ahead = {
        after: shown,
        at: performance.now(),
        result: api.nextAhead(pid, stage).then((claim) => {
          const next = claim && claim.assignment.id !== shown ? claim : null;
          entry.claim = next;
          return { claim: next, media: next ? preloadClaim(next, client, queries, PROJECT_MEDIA_BASE, { decode: true, capMs: 5_000 }) : Promise.resolve() };
        }),
      };
      ahead.current = entry;
      // A failed prefetch only means asking the queue after the submit.
      entry.result.then((r) => r.claim, () => null).then((next) => {
        if (ahead.current === entry) settled(next ? 1 : 0, next);
      });
    });
  }, [shown, api, client, queries, pid, stage, woken]);

  /** The claim prefetched after `done` when there is a usable one (its media given a moment to decode); null when the queue must be asked. */
  const take = useCallback(async (done: string): Promise<Claim | null> => {
    const a = ahead.current;
    ahead.current = null;
    if (!a || a.after !== done || performance.now() - a.at > AHEAD_FRESH_MS) return null;
    try {
      const { claim, media } = await a.result;
      if (claim) await Promise.race([media, new Promise((r) => setTimeout(r, AHEAD_MEDIA_WAIT_MS))]);
      return claim;
    } catch {
      return null;
    }
  }, []);

  /** Forgets the claim ahead without releasing it (the queue hands it back as the oldest open one). */
  const forget = useCallback(() => {
    ahead.current = null;
  }, []);

  /** The claim held ahead of `after` once its request answered (null: none); undefined while it is out or when another is held. */
  const peek = useCallback((after: string): Claim | null | undefined => (ahead.current?.after === after ? ahead.current.claim : undefined), []);

  return { take, forget, release, peek };
}
