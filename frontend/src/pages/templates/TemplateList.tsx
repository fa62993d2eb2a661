import { PageHeader } from "../../components/PageHeader";
import { Spinner } from "../../components/Spinner";
import { ErrorMessage } from "../../components/ErrorMessage";
import { EmptyState } from "../../components/EmptyState";
import { useTemplates } from "./api";
import { TemplateGrid } from "./TemplateGrid";

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
        <TemplateGrid templates={q.data} />
      )}
    </div>
  );
}
