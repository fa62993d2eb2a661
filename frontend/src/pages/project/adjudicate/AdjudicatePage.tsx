import { MediaBaseContext } from "../../../media/resolve";
import { useProject } from "../useProject";
import { GuidelinesPanel, PROJECT_MEDIA_BASE, Stat, useWorkSession, WorkFrame } from "../work";
import { AdjudicateBody } from "./AdjudicateBody";
import "../review/review.css";
import "./adjudicate.css";

/** Adjudicate: every label per question, disagreements marked, pick or edit the final label. */
export function AdjudicatePage() {
  const project = useProject();
  const session = useWorkSession(project.id, "adjudicate");
  return (
    <MediaBaseContext.Provider value={PROJECT_MEDIA_BASE}>
      <WorkFrame
        session={session}
        leaseText="Your hold on this item has expired; another adjudicator may get it."
        guidelines={<GuidelinesPanel pid={project.id} guidelines={project.guidelines} />}
        stats={(claim) => <Stat label="Labels" value={claim.context.labels?.length ?? 0} />}
      >
        {(claim) => <AdjudicateBody claim={claim} session={session} />}
      </WorkFrame>
    </MediaBaseContext.Provider>
  );
}
