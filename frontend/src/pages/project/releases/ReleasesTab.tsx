import { useProject } from "../useProject";
import { ReleaseForm } from "./ReleaseForm";
import { ReleaseList } from "./ReleaseList";
import "./releases.css";

/**
 * Releases: the project's ground truth exported in benchmark formats with a
 * manifest, a dataset card and agreement. Leads start them; leads and viewers
 * follow their progress and download them.
 */
export function ReleasesTab() {
  const project = useProject();
  const lead = (project.my_roles ?? []).includes("lead");
  return (
    <div className="releases">
      {lead && <ReleaseForm pid={project.id} />}
      <section className="releases-list">
        <h2>Releases</h2>
        <ReleaseList pid={project.id} />
      </section>
    </div>
  );
}
