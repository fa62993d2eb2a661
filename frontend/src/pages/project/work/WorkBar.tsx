import { useEffect, useState, type ReactNode } from "react";
import type { SaveState } from "./draftSaver";

/** Minutes and seconds since `since` (a performance.now() value), ticking each second from it. */
export function Elapsed({ since }: { since: number }) {
  // note: a new `since` is later than the last tick, so the clock reads 0:00 until the first tick after it.
  const [now, setNow] = useState(since);
  useEffect(() => {
    const t = window.setInterval(() => setNow(performance.now()), 1000);
    return () => window.clearInterval(t);
  }, [since]);
  const s = Math.max(0, Math.floor((now - since) / 1000));
  return (
    <span className="work-stat" title="Time on this item">
      <span className="work-stat-label">Time</span>
      <span className="work-stat-value mono">
        {Math.floor(s / 60)}:{String(s % 60).padStart(2, "0")}
      </span>
    </span>
  );
}

export function Stat({ label, value, title }: { label: string; value: ReactNode; title?: string }) {
  return (
    <span className="work-stat" title={title}>
      <span className="work-stat-label">{label}</span>
      <span className="work-stat-value">{value}</span>
    </span>
  );
}

const SAVE_TEXT: Record<SaveState, string> = {
  idle: "",
  pending: "Unsaved changes",
  saving: "Saving…",
  saved: "Draft saved",
  retrying: "Saving failed, retrying",
  lost: "Draft not saved: this item is no longer yours",
};

/** Draft and connection state: quiet when all is well, loud when it is not. */
export function SaveIndicator({ state, offline }: { state: SaveState; offline: boolean }) {
  if (offline || state === "retrying") {
    return (
      <span className="save-pill offline" role="status" data-testid="offline">
        <span className="dot" /> Offline — your answers are kept in this browser and sent when the connection is back
      </span>
    );
  }
  if (!SAVE_TEXT[state]) return null;
  return (
    <span className={`save-pill ${state}`} role="status">
      <span className="dot" /> {SAVE_TEXT[state]}
    </span>
  );
}

/** The strip above the form: stage tabs, progress, time, save state and item actions. */
export function WorkBar({ left, stats, status, actions }: { left?: ReactNode; stats: ReactNode; status: ReactNode; actions?: ReactNode }) {
  return (
    <div className="work-bar">
      {left}
      <div className="work-stats">{stats}</div>
      <div className="work-status">{status}</div>
      {actions && <div className="work-actions">{actions}</div>}
    </div>
  );
}
