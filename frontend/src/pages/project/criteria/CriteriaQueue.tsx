import { useState, type KeyboardEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useWorkflowApi, workflowKeys } from "../../../api/workflow";
import type { CriterionVerdict } from "../../../api/workflowTypes";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { Spinner } from "../../../components/Spinner";
import "./criteria.css";

export const CRITERION_VERDICTS: { key: CriterionVerdict; label: string; hotkey: string }[] = [
  { key: "valid", label: "Valid", hotkey: "1" },
  { key: "too_vague", label: "Too vague", hotkey: "2" },
  { key: "too_specific", label: "Too specific", hotkey: "3" },
];

/**
 * Criteria annotators wrote, waiting to be marked. With the list focused:
 * j/k move, 1 valid, 2 too vague, 3 too specific.
 */
export function CriteriaQueue({ pid }: { pid: string }) {
  const api = useWorkflowApi();
  const qc = useQueryClient();
  const [active, setActive] = useState(0);
  const list = useQuery({ queryKey: workflowKeys.criteria(pid), queryFn: () => api.criteria(pid, "pending") });
  const mark = useMutation({
    mutationFn: ({ id, status }: { id: string; status: CriterionVerdict }) => api.reviewCriterion(pid, id, status),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: workflowKeys.criteria(pid) });
      void qc.invalidateQueries({ queryKey: workflowKeys.stats(pid) });
    },
  });
  if (list.isPending) return <Spinner />;
  if (list.isError) return <ErrorMessage error={list.error} />;
  const items = list.data.items;
  if (items.length === 0) return <p className="muted">No criteria waiting for review.</p>;
  const at = Math.min(active, items.length - 1);

  function onKeyDown(e: KeyboardEvent) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const v = CRITERION_VERDICTS.find((x) => x.hotkey === e.key);
    if (v && items[at] && !mark.isPending) mark.mutate({ id: items[at].id, status: v.key });
    else if (e.key === "j" || e.key === "ArrowDown") setActive(Math.min(items.length - 1, at + 1));
    else if (e.key === "k" || e.key === "ArrowUp") setActive(Math.max(0, at - 1));
    else return;
    e.preventDefault();
  }

  return (
    <div className="criteria-queue" tabIndex={0} onKeyDown={onKeyDown} aria-label="Criteria to review. j and k move, 1 valid, 2 too vague, 3 too specific.">
      <ErrorMessage error={mark.error} title="Could not mark the criterion." />
      <ol className="criteria-list">
        {items.map((c, i) => (
          <li key={c.id} className={i === at ? "active" : undefined} onClick={() => setActive(i)}>
            <p className="criterion-text">{c.text}</p>
            <div className="criterion-actions">
              {CRITERION_VERDICTS.map((v) => (
                <button
                  key={v.key}
                  type="button"
                  tabIndex={-1}
                  className={`btn btn-sm crit-${v.key}`}
                  disabled={mark.isPending}
                  onClick={() => mark.mutate({ id: c.id, status: v.key })}
                >
                  <kbd className="kbd">{v.hotkey}</kbd> {v.label}
                </button>
              ))}
            </div>
          </li>
        ))}
      </ol>
      <p className="muted hint">Focus the list, then j/k to move and 1–3 to mark.</p>
    </div>
  );
}
