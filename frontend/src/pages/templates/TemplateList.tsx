import { Link } from "react-router-dom";
import { PageHeader } from "../../components/PageHeader";
import { Spinner } from "../../components/Spinner";
import { ErrorMessage } from "../../components/ErrorMessage";
import { EmptyState } from "../../components/EmptyState";
import { useTemplates } from "./api";

/** Cards for every built-in template. */
export function TemplateList() {
  const q = useTemplates();
  return (
    <div className="page">
      <PageHeader
        title="Templates"
        subtitle="Ready-made task schemas for common benchmarks. Open one to read its guidelines and try its sample items in the annotation form."
      />
      {q.isPending && <Spinner label="Loading templates…" />}
      {q.error && <ErrorMessage error={q.error} title="Could not load templates" />}
      {q.data && q.data.length === 0 && <EmptyState title="No templates" />}
      {q.data && q.data.length > 0 && (
        <ul className="template-grid" aria-label="Templates">
          {q.data.map((t) => (
            <li key={t.id}>
              <Link to={`/templates/${encodeURIComponent(t.id)}`} className="template-card">
                <span className="template-name">{t.name}</span>
                <span className="template-desc">{t.description}</span>
                <span className="template-meta">
                  <code>{t.id}</code>
                  <span>
                    {t.question_count} {t.question_count === 1 ? "question" : "questions"}
                  </span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
