import { useQuery } from "@tanstack/react-query";
import { noSchema, setupKeys, useSetupApi } from "../../../api/setup";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { STAGE_LABEL } from "./StageBar";

/**
 * Waiting work that no current member can be given, per stage, with the
 * reason (GET /stuck): the overview says why work waits instead of everyone
 * seeing "all caught up". Nothing is shown when nothing is stuck.
 */
export function StuckWork({ pid }: { pid: string }) {
  const setup = useSetupApi();
  const stuck = useQuery({ queryKey: setupKeys.stuck(pid), queryFn: () => setup.stuck(pid), refetchInterval: 15_000 });
  if (noSchema(stuck.error)) return null;
  if (stuck.isError) return <ErrorMessage error={stuck.error} title="Could not check for stuck work." />;
  if (!stuck.data || stuck.data.stages.length === 0) return null;
  return (
    <div className="notice notice-warn" role="alert" data-testid="stuck-work">
      <span className="notice-title">Work is waiting that nobody in the project can take</span>
      <ul className="notice-list">
        {stuck.data.stages.map((s) => (
          <li key={`${s.stage}:${s.language ?? ""}`} data-stage={s.stage} data-language={s.language}>
            <strong>{STAGE_LABEL[s.stage] ?? s.stage}</strong>: {s.count.toLocaleString()}
            {s.count_capped ? "+" : ""} {s.stage === "review" ? (s.count === 1 ? "label" : "labels") : s.count === 1 ? "item" : "items"} — {s.reason}.
          </li>
        ))}
      </ul>
      <span className="muted">Add a member with that role on the Members tab, or give the role to someone who has not worked on these items.</span>
    </div>
  );
}
