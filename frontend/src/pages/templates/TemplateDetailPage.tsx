import { Link, useParams, useSearchParams } from "react-router-dom";
import { Spinner } from "../../components/Spinner";
import { ErrorMessage } from "../../components/ErrorMessage";
import { Markdown } from "../../form/Markdown";
import type { TemplateDetail } from "../../api";
import { useTemplate } from "./api";
import { useCurrentUser } from "../../auth";
import { SampleForm } from "./SampleForm";

interface FormTab {
  key: string;
  name: string;
  description?: string;
  schema: TemplateDetail["schema"];
  samples: TemplateDetail["samples"];
}

/** The tabs of a template: its main labelling form, then any extra forms. */
export function formTabs(t: TemplateDetail): FormTab[] {
  const main: FormTab = { key: "", name: "Labelling form", schema: t.schema, samples: t.samples };
  const extra = (t.forms ?? []).map((f) => ({ ...f, samples: f.samples?.length ? f.samples : t.samples }));
  return [main, ...extra];
}

/** One template: guidelines, then its samples in the form, answerable and checkable. */
export function TemplateDetailPage() {
  const { id = "" } = useParams();
  const q = useTemplate(id);
  const user = useCurrentUser();
  const mayCreate = user.is_admin || user.can_create_projects;
  const [params, setParams] = useSearchParams();
  if (q.isPending) return <div className="page"><Spinner label="Loading template…" /></div>;
  if (q.error || !q.data) return <div className="page"><ErrorMessage error={q.error} title="Could not load this template" /></div>;
  const t = q.data;
  const tabs = formTabs(t);
  const tab = tabs.find((f) => f.key === (params.get("form") ?? "")) ?? tabs[0];
  const sample = Math.min(Number(params.get("sample") ?? 0) || 0, Math.max(0, tab.samples.length - 1));
  const select = (form: string, s: number) => {
    const next = new URLSearchParams();
    if (form) next.set("form", form);
    if (s) next.set("sample", String(s));
    setParams(next, { replace: true });
  };
  return (
    <div className="page page-wide template-page">
      <nav className="crumbs" aria-label="Breadcrumb">
        <Link to="/templates">Templates</Link> <span aria-hidden="true">/</span> <span>{t.id}</span>
      </nav>
      <header className="template-head">
        <div>
          <h1>{t.name}</h1>
          <p className="page-subtitle">{t.description}</p>
          {t.source && <p className="template-source">Source: {t.source}</p>}
        </div>
        {mayCreate && (
          <Link className="btn btn-primary" to={`/projects/new?template=${encodeURIComponent(t.id)}`}>
            Use this template
          </Link>
        )}
      </header>
      {t.guidelines && (
        <details className="guidelines" open>
          <summary>Guidelines</summary>
          <Markdown source={t.guidelines} />
        </details>
      )}
      <div className="template-tabs">
        {tabs.length > 1 && (
          <div className="tabs" role="tablist" aria-label="Forms">
            {tabs.map((f) => (
              <button key={f.key} type="button" role="tab" aria-selected={f === tab} className={f === tab ? "tab active" : "tab"} onClick={() => select(f.key, 0)}>
                {f.name}
              </button>
            ))}
          </div>
        )}
        {tab.description && <p className="muted form-desc">{tab.description}</p>}
        {tab.samples.length > 1 && (
          <div className="sample-pick" role="tablist" aria-label="Samples">
            <span className="eyebrow">Sample</span>
            {tab.samples.map((s, i) => (
              <button key={s.external_id + i} type="button" role="tab" aria-selected={i === sample} className={i === sample ? "chip on" : "chip"} onClick={() => select(tab.key, i)}>
                {i + 1}. {s.external_id}
              </button>
            ))}
          </div>
        )}
      </div>
      {tab.samples.length === 0 ? (
        <p className="muted">This form has no sample items.</p>
      ) : (
        <SampleForm key={`${tab.key}:${sample}`} templateId={t.id} form={tab.key || undefined} schema={tab.schema} item={tab.samples[sample]} />
      )}
    </div>
  );
}
