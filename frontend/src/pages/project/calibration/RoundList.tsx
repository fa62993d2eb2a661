import { Link } from "react-router-dom";
import { useQuery } from "@tanstack/react-query";
import { qualityKeys, useQualityApi, type Round } from "../../../api/quality";
import { percent } from "../../../charts";
import { EmptyState } from "../../../components/EmptyState";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { formatDate } from "../../../components/format";
import { Spinner } from "../../../components/Spinner";

/** How often lists and rounds that are still open are read again. */
export const ROUND_POLL_MS = 5000;

export const anyOpen = (rounds: Round[] | undefined) => (rounds ?? []).some((r) => r.status === "open");

/** The project's rounds, newest first, with their completion. */
export function RoundList({ pid }: { pid: string }) {
  const api = useQualityApi();
  const q = useQuery({
    queryKey: qualityKeys.rounds(pid),
    queryFn: () => api.rounds(pid),
    refetchInterval: (query) => (anyOpen(query.state.data) ? ROUND_POLL_MS : false),
  });
  return (
    <section className="card calibration-list">
      <h2 className="card-title">Rounds</h2>
      {q.isPending && <Spinner label="Loading rounds…" />}
      {q.isError && <ErrorMessage error={q.error} title="Could not load the rounds." />}
      {q.data && q.data.length === 0 && (
        <EmptyState title="No rounds yet">A round gives the same pool items to every participant and compares their answers.</EmptyState>
      )}
      {q.data && q.data.length > 0 && (
        <table className="table" aria-label="Calibration rounds">
          <thead>
            <tr>
              <th>Round</th>
              <th>Status</th>
              <th>Items</th>
              <th>People</th>
              <th>Completion</th>
            </tr>
          </thead>
          <tbody>
            {[...q.data]
              .sort((a, b) => b.number - a.number)
              .map((r) => (
                <tr key={r.id}>
                  <td>
                    <Link to={encodeURIComponent(r.id)}>
                      {r.number}. {r.name}
                    </Link>
                    <div className="muted">{formatDate(r.created_at)}</div>
                  </td>
                  <td>
                    <RoundStatus round={r} />
                  </td>
                  <td>{r.items}</td>
                  <td>{r.participants.length}</td>
                  <td>
                    <Completion value={r.completion} label={`Round ${r.number} completion`} />
                  </td>
                </tr>
              ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function RoundStatus({ round }: { round: Round }) {
  return round.status === "open" ? <span className="badge badge-computing">Open</span> : <span className="badge">Closed</span>;
}

/** A share 0..1 as a thin bar with its percentage. */
export function Completion({ value, label }: { value: number; label: string }) {
  const pct = Math.round(Math.max(0, Math.min(1, value)) * 100);
  return (
    <div className="completion">
      <div className="completion-bar" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct}>
        <div style={{ width: `${pct}%` }} />
      </div>
      <span className="muted">{percent(value, 0)}</span>
    </div>
  );
}
