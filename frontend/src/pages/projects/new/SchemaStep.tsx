import { ErrorMessage } from "../../../components/ErrorMessage";
import { Spinner } from "../../../components/Spinner";
import { AnnotationForm } from "../../../form/AnnotationForm";
import { MediaBaseContext, TEMPLATE_MEDIA_BASE } from "../../../media/resolve";
import { SampleForm } from "../../templates/SampleForm";
import { TemplateGrid } from "../../templates/TemplateGrid";
import { useTemplate, useTemplates } from "../../templates/api";
import { SchemaEditor } from "../setup/SchemaEditor";
import { previewItem } from "../setup/previewItem";
import { schemaProblems, type ParsedSchema } from "../setup/schemaText";
import type { SetupVerdict } from "../setup/useSetupCheck";
import type { Draft } from "./draft";

interface Props {
  draft: Draft;
  update: (patch: Partial<Draft>) => void;
  parsed: ParsedSchema | null;
  verdict: SetupVerdict | null;
  checking: boolean;
}

/** Step 1: a template from the gallery with its live preview, or a schema of one's own. */
export function SchemaStep({ draft, update, parsed, verdict, checking }: Props) {
  return (
    <div className="stack-lg">
      <div className="segmented" role="radiogroup" aria-label="Where the schema comes from">
        {(
          [
            ["template", "Start from a template"],
            ["custom", "Upload or paste a schema"],
          ] as const
        ).map(([v, label]) => (
          <label key={v} className={draft.source === v ? "segment on" : "segment"}>
            <input type="radio" name="source" value={v} checked={draft.source === v} onChange={() => update({ source: v })} />
            {label}
          </label>
        ))}
      </div>
      {draft.source === "template" ? <TemplatePicker draft={draft} update={update} /> : <CustomSchema draft={draft} update={update} parsed={parsed} verdict={verdict} checking={checking} />}
    </div>
  );
}

function TemplatePicker({ draft, update }: Pick<Props, "draft" | "update">) {
  const list = useTemplates();
  if (list.isPending) return <Spinner label="Loading templates…" />;
  if (list.error) return <ErrorMessage error={list.error} title="Could not load templates" />;
  return (
    <div className="template-pick">
      <div className="template-pick-list">
        <TemplateGrid templates={list.data} selected={draft.template} onSelect={(id) => update({ template: id })} />
      </div>
      {draft.template && <TemplatePreview id={draft.template} />}
    </div>
  );
}

function TemplatePreview({ id }: { id: string }) {
  const t = useTemplate(id);
  if (t.isPending) return <Spinner label="Loading the preview…" />;
  if (t.error) return <ErrorMessage error={t.error} title="Could not load this template" />;
  const sample = t.data.samples[0];
  return (
    <section className="card wizard-preview" aria-label="Preview">
      <h2 className="card-title">
        Preview: {t.data.name} <span className="muted">· {t.data.schema.questions.length} questions</span>
      </h2>
      <p className="muted">{t.data.description} Try the form: the answers are checked, nothing is saved.</p>
      {sample ? <SampleForm key={id} templateId={id} schema={t.data.schema} item={sample} /> : <p className="muted">This template has no sample items.</p>}
    </section>
  );
}

function CustomSchema({ draft, update, parsed, verdict, checking }: Props) {
  const problems = verdict && !verdict.valid ? schemaProblems(verdict.errors) : [];
  const valid = !!verdict?.valid && !!parsed?.ok;
  return (
    <div className="template-pick">
      <SchemaEditor text={draft.schemaText} onText={(schemaText) => update({ schemaText })} parsed={parsed} problems={problems} checking={checking} valid={valid} />
      {valid && parsed?.ok && (
        <section className="card wizard-preview" aria-label="Preview">
          <h2 className="card-title">Preview</h2>
          <p className="muted">The form as annotators will see it, with placeholder inputs.</p>
          <MediaBaseContext.Provider value={TEMPLATE_MEDIA_BASE}>
            <AnnotationForm schema={parsed.setup.schema} item={previewItem(parsed.setup.schema)} onSubmit={() => {}} submitLabel="Submit (preview)" keyboard={false} />
          </MediaBaseContext.Provider>
        </section>
      )}
    </div>
  );
}
