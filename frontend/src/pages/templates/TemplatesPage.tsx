import { PageHeader } from "../../components/PageHeader";

export function TemplatesPage() {
  return (
    <div className="page">
      <PageHeader title="Templates" subtitle="Ready-made task schemas for common benchmarks." />
      <div className="placeholder">
        <h2>Template gallery</h2>
        <p>
          Browse built-in templates — Yes/No dimension checks, 1–5 scales with checklists, pairwise preference with
          ties, multi-criteria story scoring — preview how annotators see them, and start a project from one.
        </p>
        <span className="badge badge-soon">Coming soon</span>
      </div>
    </div>
  );
}
