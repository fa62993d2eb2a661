import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useWorkflowApi, workflowKeys } from "../../../api/workflow";
import type { ItemRecord } from "../../../api/workflowTypes";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { Spinner } from "../../../components/Spinner";
import { unitName } from "../../../components/unitName";

const CATEGORY: Record<string, string> = {
  broken_media: "Broken media",
  unsafe_content: "Unsafe content",
  wrong_modality: "Wrong modality",
  other: "Other",
};

/** Items annotators flagged, waiting for the lead: return them to the queue or drop them. */
export function FlaggedItems({ pid }: { pid: string }) {
  const api = useWorkflowApi();
  const qc = useQueryClient();
  const filter = { flagged: true, limit: 50 };
  const list = useQuery({ queryKey: workflowKeys.items(pid, filter), queryFn: () => api.items(pid, filter) });
  const resolve = useMutation({
    mutationFn: ({ it, action }: { it: ItemRecord; action: "return" | "drop" }) => api.resolveFlag(pid, it.id, action, ""),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: workflowKeys.itemsAll(pid) });
      void qc.invalidateQueries({ queryKey: workflowKeys.stats(pid) });
    },
  });
  if (list.isPending) return <Spinner />;
  if (list.isError) return <ErrorMessage error={list.error} />;
  const items = list.data.items;
  if (items.length === 0) return <p className="muted">No flagged items.</p>;
  return (
    <>
      <ErrorMessage error={resolve.error} title="Could not resolve the flag." />
      <table className="table" aria-label="Flagged items">
        <thead>
          <tr>
            <th>Item</th>
            <th>Problem</th>
            <th>Reason</th>
            <th className="cell-actions">Decision</th>
          </tr>
        </thead>
        <tbody>
          {items.map((it) => (
            <tr key={it.id}>
              <td>
                <code title={it.external_id}>{unitName(it.external_id)}</code>
              </td>
              <td>{CATEGORY[String(it.flag?.category)] ?? String(it.flag?.category ?? "—")}</td>
              <td className="muted">{String(it.flag?.reason ?? "") || "—"}</td>
              <td className="cell-actions">
                <button type="button" className="btn btn-sm" disabled={resolve.isPending} onClick={() => resolve.mutate({ it, action: "return" })}>
                  Return to queue
                </button>
                <button type="button" className="btn btn-sm btn-danger-ghost" disabled={resolve.isPending} onClick={() => resolve.mutate({ it, action: "drop" })}>
                  Drop
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
