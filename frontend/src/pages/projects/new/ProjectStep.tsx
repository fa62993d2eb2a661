import { Field } from "../../../components/Field";
import { GuidelinesEditor } from "../setup/GuidelinesEditor";
import { PolicyForm } from "../setup/PolicyForm";
import type { PolicyContext } from "../setup/policyFields";
import type { SetupVerdict } from "../setup/useSetupCheck";
import type { Draft } from "./draft";

interface Props {
  draft: Draft;
  update: (patch: Partial<Draft>) => void;
  context: PolicyContext;
  verdict: SetupVerdict | null;
  /** Problems the create call answered with (by path). */
  createErrors: Record<string, string>;
}

/** Step 2: the project's name and guidelines, and its workflow policy. */
export function ProjectStep({ draft, update, context, verdict, createErrors }: Props) {
  const errors = { ...(verdict && !verdict.valid ? verdict.errors : {}), ...createErrors };
  return (
    <div className="wizard-columns">
      <div className="card stack">
        <h2 className="card-title">Project</h2>
        <Field label="Name" name="name" required maxLength={200} value={draft.name} error={draft.name.trim() ? errors.name : createErrors.name} onChange={(e) => update({ name: e.target.value })} />
        <div className="field">
          <label htmlFor="wizard-description">Description</label>
          <textarea id="wizard-description" rows={2} value={draft.description} onChange={(e) => update({ description: e.target.value })} />
        </div>
        <GuidelinesEditor value={draft.guidelines} onChange={(guidelines) => update({ guidelines, guidelinesEdited: true })} error={errors.guidelines} />
      </div>
      <div className="card stack">
        <h2 className="card-title">Workflow</h2>
        <p className="muted">How each item moves from labels to ground truth. Every field can be changed later in Settings.</p>
        <PolicyForm value={draft.workflow} onChange={(workflow) => update({ workflow, workflowEdited: true })} context={context} errors={errors} />
      </div>
    </div>
  );
}
