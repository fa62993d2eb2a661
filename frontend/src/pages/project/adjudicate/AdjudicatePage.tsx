import { MediaBaseContext } from "../../../media/resolve";
import { useProject } from "../useProject";
import { GuidelinesPanel, PROJECT_MEDIA_BASE, Stat, useWorkSession, WorkFrame } from "../work";
import { AdjudicateBody } from "./AdjudicateBody";
import "../review/review.css";
import "./adjudicate.css";
import { useTranslation } from "react-i18next";

/** Adjudicate: every label per question, disagreements marked, pick or edit the final label. */
export function AdjudicatePage() {
  const project = useProject();
  const session = useWorkSession(project.id, "adjudicate");
  const { t } = useTranslation();
  return (
    <MediaBaseContext.Provider value={PROJECT_MEDIA_BASE}>
      <WorkFrame
        session={session}
        leaseText={t("adjudicate.leaseLost")}
        guidelines={<GuidelinesPanel pid={project.id} guidelines={project.guidelines} />}
        stats={(claim) => <Stat label={t("adjudicate.labels")} value={claim.context.labels?.length ?? 0} />}
      >
        {(claim) => <AdjudicateBody claim={claim} session={session} />}
      </WorkFrame>
    </MediaBaseContext.Provider>
  );
}
