import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { queryKeys, useApi } from "../../api";
import type { Invitation } from "../../api/types";
import { ErrorMessage } from "../../components/ErrorMessage";

/** The invitations waiting for the signed-in person: join a project or decline. */
export function InvitationList() {
  const api = useApi();
  const invitations = useQuery({ queryKey: queryKeys.invitations, queryFn: api.invitations.mine });
  if (invitations.isError) return <ErrorMessage error={invitations.error} title="Could not load your invitations." />;
  if (!invitations.data || invitations.data.length === 0) return null;
  return (
    <section className="card" aria-label="Invitations">
      <h2>Invitations</h2>
      <ul className="invitation-list">
        {invitations.data.map((inv) => (
          <InvitationRow key={inv.id} invitation={inv} />
        ))}
      </ul>
    </section>
  );
}

function InvitationRow({ invitation }: { invitation: Invitation }) {
  const api = useApi();
  const qc = useQueryClient();
  const answer = useMutation({
    mutationFn: (accept: boolean) => (accept ? api.invitations.accept(invitation.id) : api.invitations.decline(invitation.id)),
    onSuccess: () => {
      qc.invalidateQueries({ queryKey: queryKeys.invitations });
      qc.invalidateQueries({ queryKey: queryKeys.projects });
    },
  });
  return (
    <li className="invitation">
      <span>
        <strong>{invitation.project_name}</strong> as {invitation.roles.join(", ")}, from {invitation.invited_by}
      </span>
      <span className="invitation-actions">
        <button type="button" className="btn btn-primary" disabled={answer.isPending} onClick={() => answer.mutate(true)}>
          Join
        </button>
        <button type="button" className="btn" disabled={answer.isPending} onClick={() => answer.mutate(false)}>
          Decline
        </button>
      </span>
      {answer.isError && <ErrorMessage error={answer.error} title="Could not answer the invitation." />}
    </li>
  );
}
