import { useState, type KeyboardEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useWorkflowApi, workflowKeys } from "../../../api/workflow";
import { useCurrentUser } from "../../../auth";
import type { Criterion, CriterionVerdict } from "../../../api/workflowTypes";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { Spinner } from "../../../components/Spinner";
import { InputsPane } from "../../../form/inputs/InputsPane";
import { MediaBaseContext } from "../../../media/resolve";
import { PROJECT_MEDIA_BASE } from "../work";
import "./criteria.css";

export const CRITERION_VERDICTS: { key: CriterionVerdict; label: string; hotkey: string }[] = [
  { key: "valid", label: "Valid", hotkey: "1" },
  { key: "too_vague", label: "Too vague", hotkey: "2" },
  { key: "too_specific", label: "Too specific", hotkey: "3" },
];

/** The criteria in list order, grouped by the item they were written for. */
export function byItem(criteria: Criterion[]): { itemId: string; criteria: Criterion[] }[] {
  const groups = new Map<string, Criterion[]>();
  for (const c of criteria) groups.set(c.item_id, [...(groups.get(c.item_id) ?? []), c]);
  return [...groups].map(([itemId, cs]) => ({ itemId, criteria: cs }));
}

/**
 * Criteria annotators wrote, waiting to be marked, item by item: the item the
 * active criterion was written for (its prompt and media) beside its criteria.
 * With the list focused: j/k move, 1 valid, 2 too vague, 3 too specific.
 */
export function CriteriaQueue({ pid }: { pid: string }) {
  const api = useWorkflowApi();
  const qc = useQueryClient();
  const me = useCurrentUser();
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
  const groups = byItem(items);
  const shown = groups.findIndex((g) => g.itemId === items[at].item_id);
  const view = list.data.inputs?.[items[at].item_id];

  function onKeyDown(e: KeyboardEvent) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const v = CRITERION_VERDICTS.find((x) => x.hotkey === e.key);
    if (v && items[at] && items[at].author_id !== me.id && !mark.isPending) mark.mutate({ id: items[at].id, status: v.key });
    else if (e.key === "j" || e.key === "ArrowDown") setActive(Math.min(items.length - 1, at + 1));
    else if (e.key === "k" || e.key === "ArrowUp") setActive(Math.max(0, at - 1));
    else return;
    e.preventDefault();
  }

  return (
    <div className="criteria-review">
      <div className="criteria-item" data-testid="criteria-item">
        <p className="eyebrow">
          Item {shown + 1} of {groups.length}
        </p>
        {view ? (
          <MediaBaseContext.Provider value={PROJECT_MEDIA_BASE}>
            <InputsPane schema={view.schema} item={{ external_id: view.item.external_id ?? "", inputs: view.item.inputs ?? {} }} answers={{}} />
          </MediaBaseContext.Provider>
        ) : (
          <p className="muted">This item cannot be shown.</p>
        )}
      </div>
      <div className="criteria-queue" tabIndex={0} onKeyDown={onKeyDown} aria-label="Criteria to review. j and k move, 1 valid, 2 too vague, 3 too specific.">
        <ErrorMessage error={mark.error} title="Could not mark the criterion." />
        {groups.map((g, gi) => (
          <section key={g.itemId} className={gi === shown ? "criteria-group shown" : "criteria-group"} aria-label={`Criteria of item ${gi + 1}`}>
            <h3 className="criteria-group-title">
              Item {gi + 1} · {g.criteria.length} {g.criteria.length === 1 ? "criterion" : "criteria"}
            </h3>
            <ol className="criteria-list">
              {g.criteria.map((c) => {
                const i = items.indexOf(c);
                const mine = c.author_id === me.id;
                return (
                  <li key={c.id} className={i === at ? "active" : undefined} onClick={() => setActive(i)}>
                    <p className="criterion-text">{c.text}</p>
                    {mine && <span className="muted criterion-mine">You wrote this; another reviewer marks it.</span>}
                    <div className="criterion-actions">
                      {CRITERION_VERDICTS.map((v) => (
                        <button
                          key={v.key}
                          type="button"
                          tabIndex={-1}
                          className={`btn btn-sm crit-${v.key}`}
                          disabled={mark.isPending || mine}
                          onClick={() => mark.mutate({ id: c.id, status: v.key })}
                        >
                          <kbd className="kbd">{v.hotkey}</kbd> {v.label}
                        </button>
                      ))}
                    </div>
                  </li>
                );
              })}
            </ol>
          </section>
        ))}
        <p className="muted hint">Focus the list, then j/k to move and 1–3 to mark.</p>
      </div>
    </div>
  );
}
