import { Link, Route, Routes } from "react-router-dom";
import { useQuery } from "@tanstack/react-query";
import type { QueueStage } from "../../../api";
import { qualityKeys, useQualityApi, type Round } from "../../../api/quality";
import { useCurrentUser } from "../../../auth";
import { EmptyState } from "../../../components/EmptyState";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { Spinner } from "../../../components/Spinner";
import { MediaBaseContext } from "../../../media/resolve";
import { LabelSession } from "../annotate/AnnotatePage";
import { Completion, ROUND_POLL_MS, RoundStatus, anyOpen } from "../calibration/RoundList";
import { useProject } from "../useProject";
import { PROJECT_MEDIA_BASE } from "../work";
import { MyRoundResults } from "./MyRoundResults";
import "../figures/measures.css";
import "../calibration/calibration.css";

/** The work stage of calibration rounds: the same form, drafts, keyboard and submit as labeling. */
export const CALIBRATION_STAGE: QueueStage = "calibration";

/**
 * My rounds: the calibration rounds the person takes part in, labeling their
 * items, and after a round is closed their answers beside gold and the notes.
 */
export function MyRoundsTab() {
  const project = useProject();
  return (
    <Routes>
      <Route index element={<RoundsOfMine pid={project.id} />} />
      <Route
        path="annotate"
        element={
          <MediaBaseContext.Provider value={PROJECT_MEDIA_BASE}>
            <LabelSession
              pid={project.id}
              stage={CALIBRATION_STAGE}
              picker={
                <Link to=".." relative="path" className="btn btn-ghost btn-sm">
                  ← My rounds
                </Link>
              }
            />
          </MediaBaseContext.Provider>
        }
      />
      <Route path=":rid" element={<MyRoundResults project={project} />} />
    </Routes>
  );
}

function RoundsOfMine({ pid }: { pid: string }) {
  const api = useQualityApi();
  const me = useCurrentUser();
  const q = useQuery({
    queryKey: qualityKeys.rounds(pid),
    queryFn: () => api.rounds(pid),
    refetchInterval: (query) => (anyOpen(query.state.data) ? ROUND_POLL_MS : false),
  });
  if (q.isPending) return <Spinner label="Loading your rounds…" />;
  if (q.isError) return <ErrorMessage error={q.error} title="Could not load your rounds." />;
  const rounds = [...q.data].sort((a, b) => b.number - a.number);
  const mine = (r: Round) => r.participants.find((p) => p.user_id === me.id);
  const toDo = rounds.some((r) => r.status === "open" && (mine(r)?.done ?? 0) < r.items);
  return (
    <section className="card">
      <div className="round-head">
        <h2 className="card-title">My calibration rounds</h2>
        {toDo && (
          <Link to="annotate" className="btn btn-primary">
            Annotate
          </Link>
        )}
      </div>
      {rounds.length === 0 ? (
        <EmptyState title="No rounds for you">When a lead puts you in a calibration round, it appears here.</EmptyState>
      ) : (
        <table className="table" aria-label="My calibration rounds">
          <thead>
            <tr>
              <th>Round</th>
              <th>Status</th>
              <th>Your progress</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {rounds.map((r) => {
              const done = mine(r)?.done ?? 0;
              return (
                <tr key={r.id}>
                  <td>
                    {r.number}. {r.name}
                  </td>
                  <td>
                    <RoundStatus round={r} />
                  </td>
                  <td>
                    <Completion value={r.items ? done / r.items : 0} label={`Round ${r.number}: ${done} of ${r.items} labeled`} />
                    <span className="muted">
                      {done} of {r.items} items
                    </span>
                  </td>
                  <td className="cell-actions">
                    {r.status === "closed" ? (
                      <Link to={encodeURIComponent(r.id)} className="btn btn-sm">
                        Results and feedback
                      </Link>
                    ) : done < r.items ? (
                      <Link to="annotate" className="btn btn-sm">
                        Annotate
                      </Link>
                    ) : (
                      <span className="muted">Done; results when the lead closes it</span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
