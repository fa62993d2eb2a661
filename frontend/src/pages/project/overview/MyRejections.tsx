import { useQuery } from "@tanstack/react-query";
import type { ProjectDetail } from "../../../api";
import { useWorkflowApi, workflowKeys } from "../../../api/workflow";
import type { MyRejection } from "../../../api/workflowTypes";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { formatDateTime } from "../../../components/format";

/**
 * The member's own labels a reviewer rejected, the latest first, each with
 * the reviewer's reason and comments per question (GET …/me/rejections: only
 * the caller's own work, never the reviewer's name). Nothing is shown while
 * none was rejected.
 */
export function MyRejections({ project }: { project: ProjectDetail }) {
  const api = useWorkflowApi();
  const q = useQuery({ queryKey: workflowKeys.myRejections(project.id), queryFn: () => api.myRejections(project.id), refetchInterval: 60_000 });
  if (q.isError) return <ErrorMessage error={q.error} title="Could not load your rejected labels." />;
  const items = q.data?.items ?? [];
  if (items.length === 0) return null;
  const label = new Map((project.schema?.questions ?? []).map((x) => [x.key, x.short_label || x.label]));
  return (
    <section className="my-rejections" aria-labelledby="my-rejections-title" data-testid="my-rejections">
      <h3 className="my-rejections-title" id="my-rejections-title">
        Rejected in review
      </h3>
      <p className="muted">A reviewer sent these labels back; their reasons help with the next items.</p>
      <ul className="my-rejections-list">
        {items.map((r) => (
          <Rejection key={r.label_id} r={r} label={label} />
        ))}
      </ul>
    </section>
  );
}

function Rejection({ r, label }: { r: MyRejection; label: Map<string, string> }) {
  const comments = Object.entries(r.comments ?? {});
  return (
    <li data-label={r.label_id}>
      <div className="muted my-rejection-when">
        Your label of {r.submitted_at ? formatDateTime(r.submitted_at) : "—"}, rejected {r.reviewed_at ? formatDateTime(r.reviewed_at) : ""}
      </div>
      <blockquote className="my-rejection-reason">{r.comment || <span className="muted">The reviewer gave no reason.</span>}</blockquote>
      {comments.length > 0 && (
        <dl className="my-rejection-comments">
          {comments.map(([key, text]) => (
            <div key={key}>
              <dt>{label.get(key) ?? key}</dt>
              <dd>{text}</dd>
            </div>
          ))}
        </dl>
      )}
    </li>
  );
}
