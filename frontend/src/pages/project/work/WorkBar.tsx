import { useEffect, useState, type ReactNode } from "react";
import type { SaveState } from "./draftSaver";
import { useTranslation } from "react-i18next";

/** Minutes and seconds since `since` (a performance.now() value), ticking each second from it. */
export function Elapsed({ since }: { since: number }) {
  const { t } = useTranslation();
  // note: a new `since` is later than the last tick, so the clock reads 0:00 until the first tick after it.
  const [now, setNow] = useState(since);
  useEffect(() => {
    const t = window.setInterval(() => setNow(performance.now()), 1000);
    return () => window.clearInterval(t);
  }, [since]);
  const s = Math.max(0, Math.floor((now - since) / 1000));
  return (
    <span className="work-stat" title={t("work.timeTitle")}>
      <span className="work-stat-label">{t("work.time")}</span>
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


/** Draft and connection state: quiet when all is well, loud when it is not. */
export function SaveIndicator({ state, offline }: { state: SaveState; offline: boolean }) {
  const { t } = useTranslation();
  const text: Record<SaveState, string> = {
    idle: "",
    pending: t("work.save.pending"),
    saving: t("work.save.saving"),
    saved: t("work.save.saved"),
    retrying: t("work.save.retrying"),
    lost: t("work.save.lost"),
  };
  if (offline || state === "retrying") {
    return (
      <span className="save-pill offline" role="status" data-testid="offline">
        <span className="dot" /> {t("work.offline")}
      </span>
    );
  }
  if (!text[state]) return null;
  return (
    <span className={`save-pill ${state}`} role="status">
      <span className="dot" /> {text[state]}
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
