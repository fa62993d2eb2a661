import { useState, type FormEvent } from "react";
import { Link } from "react-router-dom";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { setupKeys, useSetupApi, type StuckAssignResult, type StuckCandidate, type StuckStage } from "../../../api/setup";
import { queryKeys } from "../../../api";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { formatDateTime } from "../../../components/format";
import { STAGE_LABEL } from "./StageBar";

/** A short form of an id for a list: its first eight characters. */
const short = (id: string) => (id.length > 12 ? `${id.slice(0, 8)}…` : id);

/** How a candidate is named in the list: name and email, and the role a hand-off adds. */
function candidateText(c: StuckCandidate, role: string): string {
  const who = c.name && c.name !== c.email ? `${c.name} <${c.email}>` : c.email;
  return c.has_role ? who : `${who} — adds the ${role} role`;
}

/**
 * Hands one piece of a stage's stuck work to a named member: the lead picks a
 * waiting item (for reviews, a label), then one of the members the server
 * says may take it (GET …/stuck/candidates), and the work is held for them
 * (POST …/stuck/assign, adding the stage's role when they lack it); onHanded
 * is told what happened. A refusal shows the server's reason.
 */
export function StuckHandOver({ pid, stuck, onClose, onHanded }: { pid: string; stuck: StuckStage; onClose: () => void; onHanded: (text: string) => void }) {
  const setup = useSetupApi();
  const qc = useQueryClient();
  const [id, setId] = useState(stuck.ids[0] ?? "");
  const [user, setUser] = useState("");
  const role = ROLE[stuck.stage] ?? "member";
  const cands = useQuery({
    queryKey: setupKeys.stuckCandidates(pid, stuck.stage, id),
    queryFn: () => setup.stuckCandidates(pid, stuck.stage, id),
    enabled: id !== "",
  });
  const list = cands.data?.candidates ?? [];
  const chosen = list.find((c) => c.user_id === user) ?? null;
  const assign = useMutation({
    mutationFn: (c: StuckCandidate) => setup.assignStuck(pid, { stage: stuck.stage, id, user: c.user_id, grant_role: !c.has_role }),
    onSuccess: (res, c) => {
      setUser("");
      onHanded(handedText(res, c.name || c.email, STAGE_LABEL[stuck.stage] ?? stuck.stage));
      void qc.invalidateQueries({ queryKey: setupKeys.stuck(pid) });
      void qc.invalidateQueries({ queryKey: queryKeys.members(pid) });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (chosen) assign.mutate(chosen);
  };
  const what = stuck.stage === "review" ? "Label" : "Item";
  return (
    <form className="stuck-handover" onSubmit={submit} aria-label={`Hand over ${STAGE_LABEL[stuck.stage] ?? stuck.stage} work`}>
      <div className="field stuck-handover-field">
        <label htmlFor={`stuck-id-${stuck.stage}`}>{what}</label>
        <select
          id={`stuck-id-${stuck.stage}`}
          value={id}
          onChange={(e) => {
            setId(e.target.value);
            setUser("");
            assign.reset();
          }}
        >
          {stuck.ids.map((x, i) => (
            <option key={x} value={x} title={x}>
              {`${what} ${i + 1} · ${short(x)}`}
            </option>
          ))}
        </select>
        {stuck.stage !== "review" && id && (
          <Link to={`/projects/${encodeURIComponent(pid)}/items?item=${encodeURIComponent(id)}`} className="link-btn">
            Open
          </Link>
        )}
      </div>
      <div className="field stuck-handover-field">
        <label htmlFor={`stuck-user-${stuck.stage}`}>Give it to</label>
        <select
          id={`stuck-user-${stuck.stage}`}
          value={user}
          disabled={cands.isPending || list.length === 0}
          onChange={(e) => {
            setUser(e.target.value);
            assign.reset();
          }}
        >
          <option value="">{cands.isPending ? "Loading who may take it…" : list.length ? "Choose a member" : "Nobody may take it"}</option>
          {list.map((c) => (
            <option key={c.user_id} value={c.user_id}>
              {candidateText(c, role)}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="btn btn-primary btn-sm" disabled={!chosen || assign.isPending}>
        Hand over
      </button>
      <button type="button" className="btn btn-ghost btn-sm" onClick={onClose}>
        Close
      </button>
      {cands.isSuccess && list.length === 0 && (
        <p className="muted stuck-handover-note">
          No member may take this {what.toLowerCase()}: everyone has worked on it. Invite someone with the {role} role on the Members tab.
        </p>
      )}
      <ErrorMessage error={cands.error} title="Could not list who may take it." />
      <ErrorMessage error={assign.error} title="The server refused the hand-off." />
    </form>
  );
}

/** The role that works each stage. */
const ROLE: Record<string, string> = { criteria: "annotator", label: "annotator", review: "reviewer", adjudicate: "adjudicator" };

function handedText(res: StuckAssignResult, who: string, stage: string): string {
  if (res.status === "invited") return `${res.email ?? who} was invited as ${res.role}; they take the work from the queue once they join.`;
  const until = res.assignment ? ` until ${formatDateTime(res.assignment.lease_expires_at)}` : "";
  const added = res.role_added ? ` (now ${res.role === "annotator" ? "an" : "a"} ${res.role})` : "";
  return `Held for ${who}${added}${until}: their next claim in the ${stage} stage gives it to them.`;
}
