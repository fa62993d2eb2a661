import { useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { queryKeys } from "../../../api";
import { useInsightApi, type BalanceReport, type BalanceTargets } from "../../../api/insight";
import { ErrorMessage } from "../../../components/ErrorMessage";

/** The lead's balance targets: ρ, δ and the metadata key (or the language) to count by; saving replaces all three. */
export function TargetsForm({ pid, report }: { pid: string; report: BalanceReport }) {
  const api = useInsightApi();
  const qc = useQueryClient();
  const t = report.targets;
  const [ratio, setRatio] = useState(t.ratio === undefined ? "" : String(t.ratio));
  const [spread, setSpread] = useState(t.spread === undefined ? "" : String(t.spread));
  const [by, setBy] = useState(t.by ?? "");
  const binary = report.binary !== null;
  const save = useMutation({
    mutationFn: (b: BalanceTargets) => api.setTargets(pid, b),
    // note: the project key is a prefix of the balance's, so both are read again
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.project(pid) }),
  });
  const keys = report.meta.map((m) => m.key);
  if (by && !keys.includes(by.replace(/^meta\./, ""))) keys.push(by.replace(/^meta\./, ""));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const b: BalanceTargets = {};
    if (ratio.trim() !== "") b.ratio = Number(ratio);
    if (spread.trim() !== "") b.spread = Number(spread);
    if (by) b.by = by;
    save.mutate(b);
  };

  return (
    <form className="card balance-targets" onSubmit={submit} aria-label="Balance targets">
      <h3 className="card-title">Targets</h3>
      {binary && (
        <>
          <div className="field">
            <label htmlFor="target-ratio">No/Yes ratio ρ</label>
            <input id="target-ratio" type="number" inputMode="decimal" min="0" step="any" value={ratio} onChange={(e) => setRatio(e.target.value)} placeholder="e.g. 0.95" />
            <small className="field-hint">Every binary question's No/Yes ratio must exceed it.</small>
          </div>
          <div className="field">
            <label htmlFor="target-spread">Spread δ</label>
            <input id="target-spread" type="number" inputMode="numeric" min="1" step="1" value={spread} onChange={(e) => setSpread(e.target.value)} placeholder="e.g. 6" />
            <small className="field-hint">The largest score bin minus the smallest must fall under it.</small>
          </div>
        </>
      )}
      <div className="field">
        <label htmlFor="target-by">Count by</label>
        <select id="target-by" value={by} onChange={(e) => setBy(e.target.value)}>
          <option value="">No metadata key</option>
          <option value="language">Language</option>
          {keys.map((k) => (
            <option key={k} value={`meta.${k}`}>
              {k}
            </option>
          ))}
        </select>
      </div>
      <div className="balance-targets-actions">
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          Save targets
        </button>
        {save.isSuccess && !save.isPending && (
          <span className="notice notice-success" role="status">
            Targets saved.
          </span>
        )}
      </div>
      {save.isError && <ErrorMessage error={save.error} title="Could not save the targets." />}
    </form>
  );
}
