import { Link } from "react-router-dom";
import { useQuery } from "@tanstack/react-query";
import { useWorkflowApi, workflowKeys } from "../../../api/workflow";
import { EmptyState } from "../../../components/EmptyState";

/** The Items tab with its imports set to the calibration pool. */
export const poolImportPath = (pid: string) => `/projects/${encodeURIComponent(pid)}/items?pool=calibration`;

/**
 * Says so when the calibration pool has no items, since no round can start
 * then, and leads to the Items tab's calibration import.
 */
export function PoolNotice({ pid }: { pid: string }) {
  const api = useWorkflowApi();
  const filter = { stage: "calibration" as const, limit: 1 };
  const q = useQuery({ queryKey: workflowKeys.items(pid, filter), queryFn: () => api.items(pid, filter) });
  if (!q.data || q.data.items.length > 0) return null;
  return (
    <section className="card pool-empty" aria-label="Calibration pool">
      <EmptyState title="The calibration pool is empty">
        <p>
          Rounds take their items from the calibration pool, kept apart from production. Import items into it on the Items tab with the calibration pool chosen,
          each with its gold answer under <code>ground_truth</code>.
        </p>
        <Link className="btn btn-primary" to={poolImportPath(pid)}>
          Import calibration items
        </Link>
      </EmptyState>
    </section>
  );
}
