import { useProject } from "../useProject";
import { PolicyCard } from "./PolicyCard";
import { SchemaCard } from "./SchemaCard";
import { GuidelinesCard } from "./GuidelinesCard";
import { DangerZone } from "./DangerZone";
import "../../projects/setup/setup.css";
import "./settings.css";

/** The lead's settings: workflow policy, schema and its versions, guidelines, archive and delete. */
export function SettingsTab() {
  const project = useProject();
  // note: each card starts from the project as loaded; a saved change reloads the project and remounts them
  const key = `${project.id}:${project.updated_at}`;
  return (
    <div className="settings">
      <div className="settings-main">
        <PolicyCard key={`p-${key}`} project={project} />
      </div>
      <div className="settings-side">
        <SchemaCard key={`s-${project.id}`} project={project} />
        <GuidelinesCard key={`g-${key}`} project={project} />
        <DangerZone project={project} />
      </div>
    </div>
  );
}
