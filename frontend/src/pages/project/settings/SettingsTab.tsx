import { useProject } from "../useProject";
import { PolicyCard } from "./PolicyCard";
import { SchemaCard } from "./SchemaCard";
import { GuidelinesCard } from "./GuidelinesCard";
import { DangerZone } from "./DangerZone";
import { WebhooksCard } from "./WebhooksCard";
import "../../projects/setup/setup.css";
import "./settings.css";

/** The lead's settings: workflow policy, schema and its versions, guidelines, webhooks, archive and delete. */
export function SettingsTab() {
  const project = useProject();
  // note: each card edits its own copy, taken when it mounts and again when it saves
  const key = project.id;
  return (
    <div className="settings">
      <div className="settings-main">
        <PolicyCard key={`p-${key}`} project={project} />
        <WebhooksCard key={`w-${key}`} project={project} />
      </div>
      <div className="settings-side">
        <SchemaCard key={`s-${project.id}`} project={project} />
        <GuidelinesCard key={`g-${key}`} project={project} />
        <DangerZone project={project} />
      </div>
    </div>
  );
}
