import { Activity, useLayoutEffect, useRef, type ReactNode } from "react";
import type { Claim } from "../../../api";
import type { SaveState } from "./draftSaver";
import { ProgressStats } from "./ProgressStats";
import { QueueEmpty, QueueError, QueueLoading, SubmitProblem } from "./QueueStates";
import type { WorkSession } from "./useWorkSession";
import { Elapsed, SaveIndicator, WorkBar } from "./WorkBar";
import "./work.css";

interface Props {
  session: WorkSession;
  /** Shown when the lease on the item is lost. */
  leaseText: string;
  /** Left of the work bar, e.g. a stage picker. */
  left?: ReactNode;
  /** More counts of the claim, after progress and time. */
  stats?: (claim: Claim) => ReactNode;
  saveState?: SaveState;
  /** Item actions at the right of the work bar. */
  actions?: ReactNode;
  /** Under the work bar, above the item: the project's guidelines. */
  guidelines?: ReactNode;
  /**
   * The page's view of one claim; mounted afresh for each assignment, so its
   * state starts clean. The claim ahead is rendered with it, hidden (no
   * effects, no keys), and kept when it becomes the one shown.
   */
  children: (claim: Claim) => ReactNode;
}

/**
 * A new item opens at the top of the page, and what took the keyboard when it
 * mounted (the first question) is brought into view if the top does not show it.
 * note: runs after the item's own layout effects (children first), before the first paint.
 */
function showFromTop(frame: HTMLElement | null) {
  const page = document.scrollingElement ?? document.documentElement;
  // "instant" also stops a smooth scroll the previous item started (moving to its next question).
  if (typeof page.scrollTo === "function") page.scrollTo({ top: 0, behavior: "instant" });
  else page.scrollTop = 0;
  const focused = document.activeElement;
  if (!frame || !(focused instanceof HTMLElement) || !frame.contains(focused)) return;
  const box = focused.getBoundingClientRect();
  if (box.top < 0 || box.top + Math.min(box.height, 120) > window.innerHeight) focused.scrollIntoView?.({ block: "nearest" });
}

/** What is on screen: the assignment, and its pass when the form comes in passes. */
export const shownKey = (claim: Claim) => `${claim.assignment.id}:${claim.item.pass?.number ?? 0}`;

/** A work page's frame: the work bar, notices, the queue's loading, error and empty states, and the item's body. */
export function WorkFrame({ session: s, leaseText, left, stats, saveState = "idle", actions, guidelines, children }: Props) {
  const aid = s.claim?.assignment.id ?? "";
  // Each pass of a form with passes is mounted afresh, like a new item.
  const shown = s.claim ? shownKey(s.claim) : "";
  const frame = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (shown) showFromTop(frame.current);
  }, [shown]);
  const bar = (
    <>
      <ProgressStats stage={s.stage} progress={s.progress} held={s.held} />
      {s.claim && <Elapsed since={s.shownAt} />}
      {s.claim && stats?.(s.claim)}
    </>
  );
  return (
    <div ref={frame} className="work" data-stage={s.stage} data-assignment={aid} data-shown={shown} data-pass={s.claim?.item.pass?.number} data-passes={s.claim?.item.pass?.count} data-testid="work">
      <WorkBar left={left} stats={bar} status={<SaveIndicator state={saveState} offline={s.offline} />} actions={s.claim ? actions : undefined} />
      {guidelines}
      {s.leaseLost && (
        <div className="notice notice-warn" role="alert">
          {leaseText}
        </div>
      )}
      {s.problem && s.problem.aid === aid && <SubmitProblem error={s.problem.error} onNext={s.reload} />}
      {s.status === "loading" && <QueueLoading />}
      {s.status === "error" && <QueueError error={s.error} onRetry={s.reload} />}
      {s.status === "empty" && <QueueEmpty stage={s.stage} onRetry={s.reload} done={s.progress?.done_today ?? 0} />}
      {s.status === "ready" && s.claim && (
        <>
          <Activity key={shown} mode="visible">
            {children(s.claim)}
          </Activity>
          {/* The item claimed ahead, rendered hidden while this one is worked on: after a submit it is only revealed. */}
          {s.next && s.next.assignment.id !== aid && (
            <Activity key={shownKey(s.next)} mode="hidden">
              {children(s.next)}
            </Activity>
          )}
        </>
      )}
    </div>
  );
}
