import { MediaBaseContext } from "../../../media/resolve";
import { useProject } from "../useProject";
import { GuidelinesPanel, PROJECT_MEDIA_BASE, useWorkSession, WorkFrame } from "../work";
import { ReviewBody } from "./ReviewBody";
import "./review.css";
import { useTranslation } from "react-i18next";

/** Review: the item and the label under review side by side, verdicts on single keys. */
export function ReviewPage() {
  const project = useProject();
  const session = useWorkSession(project.id, "review");
  const { t } = useTranslation();
  return (
    <MediaBaseContext.Provider value={PROJECT_MEDIA_BASE}>
      <WorkFrame
        session={session}
        leaseText={t("review.leaseLost")}
        guidelines={<GuidelinesPanel pid={project.id} guidelines={project.guidelines} />}
      >
        {(claim) => <ReviewBody claim={claim} session={session} />}
      </WorkFrame>
    </MediaBaseContext.Provider>
  );
}
