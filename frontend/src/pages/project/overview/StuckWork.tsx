import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { noSchema, setupKeys, useSetupApi } from "../../../api/setup";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { STAGE_LABEL } from "./StageBar";
import { StuckHandOver } from "./StuckHandOver";

/**
 * Waiting work that no current member can be given, per stage, with the
 * reason (GET /stuck): the overview says why work waits instead of everyone
 * seeing "all caught up", and the lead can hand a piece of it to a named
 * member. Nothing is shown when nothing is stuck.
 */
export function StuckWork({ pid }: { pid: string }) {
  const setup = useSetupApi();
  const stuck = useQuery({ queryKey: setupKeys.stuck(pid), queryFn: () => setup.stuck(pid), refetchInterval: 15_000 });
  const [open, setOpen] = useState<string | null>(null);
  const [handed, setHanded] = useState<string | null>(null);
  if (noSchema(stuck.error)) return null;
  if (stuck.isError) return <ErrorMessage error={stuck.error} title="Could not check for stuck work." />;
  const done = handed && (
    <p className="notice notice-success" role="status" data-testid="stuck-handed">
      {handed}
    </p>
  );
  if (!stuck.data || stuck.data.stages.length === 0) return done || null;
  return (
    <>
      {done}
      <div className="notice notice-warn" role="alert" data-testid="stuck-work">
        <span className="notice-title">Work is waiting that nobody in the project can take</span>
        <ul className="notice-list">
          {stuck.data.stages.map((s) => {
            const key = `${s.stage}:${s.language ?? ""}`;
            return (
              <li key={key} data-stage={s.stage} data-language={s.language}>
                <strong>{STAGE_LABEL[s.stage] ?? s.stage}</strong>: {s.count.toLocaleString()}
                {s.count_capped ? "+" : ""} {s.stage === "review" ? (s.count === 1 ? "label" : "labels") : s.count === 1 ? "item" : "items"} — {s.reason}.
                {s.ids.length > 0 && open !== key && (
                  <button type="button" className="link-btn stuck-handover-open" onClick={() => setOpen(key)}>
                    Hand to someone…
                  </button>
                )}
                {open === key && <StuckHandOver pid={pid} stuck={s} onClose={() => setOpen(null)} onHanded={setHanded} />}
              </li>
            );
          })}
        </ul>
        <span className="muted">Add a member with that role on the Members tab, or hand a piece of it to someone who has not worked on it.</span>
      </div>
    </>
  );
}
