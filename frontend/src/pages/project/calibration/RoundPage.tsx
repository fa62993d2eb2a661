import { useState } from "react";
import { Link, useParams } from "react-router-dom";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { qualityKeys, useQualityApi, type RoundDetail } from "../../../api/quality";
import type { ProjectDetail } from "../../../api/workflowTypes";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { formatDateTime } from "../../../components/format";
import { Spinner } from "../../../components/Spinner";
import { Completion, ROUND_POLL_MS, RoundStatus } from "./RoundList";
import { RoundReportView } from "./RoundReport";
import { METRIC_LABEL, ruleText } from "./rule";

/** One round: completion while it is open, closing it, then its report. */
export function RoundPage({ project }: { project: ProjectDetail }) {
  const { rid = "" } = useParams();
  const api = useQualityApi();
  const q = useQuery({
    queryKey: qualityKeys.round(project.id, rid),
    queryFn: () => api.round(project.id, rid),
    refetchInterval: (query) => (query.state.data?.status === "open" ? ROUND_POLL_MS : false),
  });
  if (q.isPending) return <Spinner label="Loading the round…" />;
  if (q.isError) return <ErrorMessage error={q.error} title="Could not load this round." />;
  const r = q.data;
  return (
    <div className="measures">
      <Link to=".." relative="path" className="muted">
        ← All rounds
      </Link>
      <section className="card">
        <div className="round-head">
          <div>
            <h2>
              Round {r.number}: {r.name}
            </h2>
            <p className="muted">
              {r.items} items · pass: {ruleText(r.pass, METRIC_LABEL)} · started {formatDateTime(r.created_at)}
              {r.closed_at && ` · closed ${formatDateTime(r.closed_at)}`}
            </p>
          </div>
          <div className="round-actions">
            <RoundStatus round={r} />
            {r.status === "open" && <CloseButton pid={project.id} round={r} />}
          </div>
        </div>
        <Completion value={r.completion} label="Round completion" />
        <ul className="round-people" aria-label="Participants">
          {r.participants.map((p) => (
            <li key={p.user_id}>
              <span>
                {p.name} <span className="muted">{p.email}</span>
              </span>
              <Completion value={r.items ? p.done / r.items : 0} label={`${p.name}: ${p.done} of ${r.items}`} />
            </li>
          ))}
        </ul>
      </section>
      {r.status === "closed" && <RoundReportView project={project} round={r} />}
    </div>
  );
}

/** Closing freezes the round: labels submitted afterwards are refused. Asks once more before it does. */
function CloseButton({ pid, round }: { pid: string; round: RoundDetail }) {
  const api = useQualityApi();
  const qc = useQueryClient();
  const [asking, setAsking] = useState(false);
  const close = useMutation({
    mutationFn: () => api.closeRound(pid, round.id),
    onSuccess: (closed) => {
      qc.setQueryData(qualityKeys.round(pid, round.id), { ...round, ...closed });
      void qc.invalidateQueries({ queryKey: qualityKeys.rounds(pid) });
    },
  });
  if (!asking) {
    return (
      <button type="button" className="btn" onClick={() => setAsking(true)}>
        Close round
      </button>
    );
  }
  return (
    <div className="round-actions" role="group" aria-label="Close the round">
      <span>{round.completion < 1 ? "Not everyone has finished. Close anyway?" : "Close the round and compute its report?"}</span>
      <button type="button" className="btn btn-primary" disabled={close.isPending} onClick={() => close.mutate()}>
        Close now
      </button>
      <button type="button" className="btn btn-ghost" onClick={() => setAsking(false)}>
        Cancel
      </button>
      {close.isError && <ErrorMessage error={close.error} title="Could not close the round." />}
    </div>
  );
}
