import type { ReactNode } from "react";
import type { ProjectDetail, User } from "../../api";
import { OverviewTab } from "./overview/OverviewTab";
import { MembersTab } from "./members/MembersTab";
import { PlaceholderTab } from "./PlaceholderTab";
import { AnnotatePage } from "./annotate/AnnotatePage";
import { ReviewPage } from "./review/ReviewPage";
import { ItemsTab } from "./items/ItemsTab";
import { AdjudicatePage } from "./adjudicate/AdjudicatePage";
import { ReleasesTab } from "./releases/ReleasesTab";
import { AgreementTab } from "./agreement/AgreementTab";
import { QualityTab } from "./quality/QualityTab";
import { CalibrationTab } from "./calibration/CalibrationTab";
import { MyRoundsTab } from "./rounds/MyRoundsTab";
import { BalanceTab } from "./balance/BalanceTab";
import { ReportTab } from "./report/ReportTab";
import { JudgesTab } from "./judges/JudgesTab";

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

export const projectTabs: ProjectTab[] = [
  { path: "overview", label: "Overview", element: <OverviewTab /> },
  {
    path: "items",
    label: "Items",
    element: <ItemsTab />,
  },
  {
    path: "annotate",
    label: "Annotate",
    element: <AnnotatePage />,
  },
  {
    path: "review",
    label: "Review",
    element: <ReviewPage />,
  },
  {
    path: "adjudicate",
    label: "Adjudicate",
    element: <AdjudicatePage />,
  },
  {
    path: "rounds",
    label: "My rounds",
    element: <MyRoundsTab />,
    visible: ({ project }) => project.my_roles.includes("annotator"),
  },
  {
    path: "calibration",
    label: "Calibration",
    element: <CalibrationTab />,
    visible: ({ project }) => project.my_roles.includes("lead"),
  },
  {
    path: "agreement",
    label: "Agreement",
    element: <AgreementTab />,
    visible: ({ project }) => project.my_roles.includes("lead") || project.my_roles.includes("viewer"),
  },
  {
    path: "quality",
    label: "Quality",
    element: <QualityTab />,
    visible: ({ project }) => project.my_roles.includes("lead"),
  },
  {
    path: "balance",
    label: "Balance",
    element: <BalanceTab />,
    visible: ({ project }) => project.my_roles.includes("lead") || project.my_roles.includes("viewer"),
  },
  {
    path: "report",
    label: "Report",
    element: <ReportTab />,
    visible: ({ project }) => project.my_roles.includes("lead") || project.my_roles.includes("viewer"),
  },
  {
    path: "judges",
    label: "Judges",
    element: <JudgesTab />,
    visible: ({ project }) => project.my_roles.includes("lead") || project.my_roles.includes("viewer"),
  },
  {
    path: "releases",
    label: "Releases",
    element: <ReleasesTab />,
    visible: ({ project }) => project.my_roles.includes("lead") || project.my_roles.includes("viewer"),
  },
  { path: "members", label: "Members", element: <MembersTab /> },
  {
    path: "settings",
    label: "Settings",
    element: (
      <PlaceholderTab title="Settings">
        The task schema (from a template or written by hand) and the workflow policy — overlap, cross-review,
        consensus rule.
      </PlaceholderTab>
    ),
  },
];
