import { useOutletContext } from "react-router-dom";
import type { ProjectDetail } from "../../api";

/** What every project tab receives from the project page. */
export interface ProjectContext {
  project: ProjectDetail;
}

/** The project being shown, with its schema and workflow; for components rendered inside a project tab. */
export function useProject(): ProjectDetail {
  return useOutletContext<ProjectContext>().project;
}
