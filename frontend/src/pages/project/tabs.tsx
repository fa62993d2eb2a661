import type { ReactNode } from "react";
import type { ProjectDetail, ProjectRole, User } from "../../api";
import { OverviewTab } from "./overview/OverviewTab";
import { MembersTab } from "./members/MembersTab";
import { AnnotatePage } from "./annotate/AnnotatePage";
import { ReviewPage } from "./review/ReviewPage";
import { ItemsTab } from "./items/ItemsTab";
import { AdjudicatePage } from "./adjudicate/AdjudicatePage";
import { ReleasesTab } from "./releases/ReleasesTab";
import { AgreementTab } from "./agreement/AgreementTab";
import { QualityTab } from "./quality/QualityTab";
import { CalibrationTab } from "./calibration/CalibrationTab";
import { MyRoundsTab } from "./rounds/MyRoundsTab";
import { SettingsTab } from "./settings/SettingsTab";
import { BalanceTab } from "./balance/BalanceTab";
import { ReportTab } from "./report/ReportTab";
import { JudgesTab } from "./judges/JudgesTab";
import { CriteriaTab } from "./criteria/CriteriaTab";

/**
 * A section of the project page. Capabilities plug in by adding an entry
 * here (or replacing a placeholder's element); the route is
 * /projects/:pid/<path>/* so a tab may have its own sub-routes.
 */
export interface ProjectTab {
  path: string;
  label: string;
  element: ReactNode;
  /** Hides the tab for users who cannot use it; the server still decides. */
  visible?: (ctx: { project: ProjectDetail; user: User }) => boolean;
}

/** Shown to members holding any of the roles (administrators hold every role in every project). */
const forRoles =
  (...roles: ProjectRole[]) =>
  ({ project }: { project: ProjectDetail }) =>
    roles.some((r) => (project.my_roles ?? []).includes(r));

/** Review of labels runs only with cross review; without it the stage does not exist. */
const reviewsLabels = (ctx: { project: ProjectDetail }) =>
  ctx.project.workflow?.review === "cross" && forRoles("reviewer")(ctx);

/** Criteria are reviewed by leads and reviewers, only when the policy has a criteria stage. */
const reviewsCriteria = (ctx: { project: ProjectDetail }) => !!ctx.project.workflow?.criteria_stage && forRoles("lead", "reviewer")(ctx);

export const projectTabs: ProjectTab[] = [
  { path: "overview", label: "Overview", element: <OverviewTab /> },
  { path: "items", label: "Items", element: <ItemsTab />, visible: forRoles("lead") },
  { path: "annotate", label: "Annotate", element: <AnnotatePage />, visible: forRoles("annotator") },
  { path: "review", label: "Review", element: <ReviewPage />, visible: reviewsLabels },
  { path: "criteria", label: "Criteria", element: <CriteriaTab />, visible: reviewsCriteria },
  { path: "adjudicate", label: "Adjudicate", element: <AdjudicatePage />, visible: forRoles("adjudicator") },
  { path: "rounds", label: "My rounds", element: <MyRoundsTab />, visible: forRoles("annotator") },
  { path: "calibration", label: "Calibration", element: <CalibrationTab />, visible: forRoles("lead") },
  { path: "agreement", label: "Agreement", element: <AgreementTab />, visible: forRoles("lead", "viewer") },
  { path: "quality", label: "Quality", element: <QualityTab />, visible: forRoles("lead") },
  { path: "balance", label: "Balance", element: <BalanceTab />, visible: forRoles("lead", "viewer") },
  { path: "report", label: "Report", element: <ReportTab />, visible: forRoles("lead", "viewer") },
  { path: "judges", label: "Judges", element: <JudgesTab />, visible: forRoles("lead", "viewer") },
  { path: "releases", label: "Releases", element: <ReleasesTab />, visible: forRoles("lead", "viewer") },
  { path: "members", label: "Members", element: <MembersTab />, visible: forRoles("lead", "viewer") },
  { path: "settings", label: "Settings", element: <SettingsTab />, visible: forRoles("lead") },
];

/** The tabs this member sees, in order. */
export function visibleTabs(project: ProjectDetail, user: User): ProjectTab[] {
  return projectTabs.filter((t) => !t.visible || t.visible({ project, user }));
}
