import { useMemo, useState, type FormEvent } from "react";
import { useSearchParams } from "react-router-dom";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { queryKeys, useApi } from "../../../api";
import { useWorkflowApi, workflowKeys } from "../../../api/workflow";
import type { ImportPool, ItemFilter, ItemRecord, ProjectDetail, Stage } from "../../../api/workflowTypes";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { Spinner } from "../../../components/Spinner";
import { formatDateTime } from "../../../components/format";
import { useProject } from "../useProject";
import { STAGE_LABEL, STAGE_ORDER } from "../overview/StageBar";
import { ImportCard } from "./ImportCard";
import { ImportFormat } from "./ImportFormat";
import { ItemDetailView, PROVENANCE } from "./ItemDetail";
import { MediaImportCard } from "./MediaImportCard";
import "../overview/overview.css";
import "../adjudicate/adjudicate.css";
import "./items.css";
import { unitName } from "../../../components/unitName";

const PAGE = 25;

/** The stages to filter by: the workflow's, then gold items and the calibration pool. */
const FILTER_STAGES: Stage[] = [...STAGE_ORDER, "gold", "calibration"];
const ITEM_STAGE_LABEL: Record<string, string> = { ...STAGE_LABEL, gold: "Gold", calibration: "Calibration pool" };

/**
 * Items: import, then browse by stage, flag and external id; clicking an item
 * opens its detail (`?item=<id>`, so it can be linked and Back returns to the
 * list, which stays mounted and keeps its filters and page).
 */
export function ItemsTab() {
  const project = useProject();
  const core = useApi();
  const [params, setParams] = useSearchParams();
  const lead = (project.my_roles ?? []).includes("lead");
  const members = useQuery({ queryKey: queryKeys.members(project.id), queryFn: () => core.projects.members(project.id), enabled: lead });
  const names = useMemo(() => new Map((members.data ?? []).map((m) => [m.user_id, m.name])), [members.data]);
  if (!lead) return <p className="muted">Only the project's leads can browse and import items.</p>;
  const open = params.get("item");
  // note: ?pool=calibration opens the imports on the calibration pool (the Calibration tab links here)
  const pool: ImportPool = params.get("pool") === "calibration" ? "calibration" : "production";
  const setPool = (p: ImportPool) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (p === "calibration") next.set("pool", p);
        else next.delete("pool");
        return next;
      },
      { replace: true },
    );
  const show = (iid: string | null) =>
    setParams((p) => {
      const next = new URLSearchParams(p);
      if (iid) next.set("item", iid);
      else next.delete("item");
      return next;
    });
  return (
    <div className="items-tab">
      {open && <ItemDetailView key={open} pid={project.id} iid={open} schema={project.schema} names={names} onBack={() => show(null)} />}
      <div className="items-list" hidden={!!open}>
        <div className="items-imports" id="import">
          <ImportCard pid={project.id} pool={pool} onPool={setPool} />
          <MediaImportCard pid={project.id} pool={pool} onPool={setPool} />
        </div>
        <ImportFormat pid={project.id} pool={pool} />
        <ItemsBrowser project={project} names={names} onOpen={show} />
      </div>
    </div>
  );
}

function ItemsBrowser({ project, names, onOpen }: { project: ProjectDetail; names: Map<string, string>; onOpen: (iid: string) => void }) {
  const api = useWorkflowApi();
  const [stage, setStage] = useState<Stage | "">("");
  const [flagged, setFlagged] = useState("");
  const [ext, setExt] = useState("");
  const [extApplied, setExtApplied] = useState("");
  const [cursors, setCursors] = useState<string[]>([""]);
  const filter: ItemFilter = {
    stage: stage || undefined,
    flagged: flagged === "" ? undefined : flagged === "true",
    external_id: extApplied || undefined,
    cursor: cursors[cursors.length - 1] || undefined,
    limit: PAGE,
  };
  const page = useQuery({ queryKey: workflowKeys.items(project.id, filter), queryFn: () => api.items(project.id, filter), placeholderData: keepPreviousData });

  const reset = () => setCursors([""]);
  function search(e: FormEvent) {
    e.preventDefault();
    setExtApplied(ext.trim());
    reset();
  }

  return (
    <div className="card items-card">
      <div className="items-head">
        <h2 className="card-title">Items</h2>
        <form className="items-filters" onSubmit={search} aria-label="Filter items">
          <select aria-label="Stage" value={stage} onChange={(e) => (setStage(FILTER_STAGES.find((s) => s === e.target.value) ?? ""), reset())}>
            <option value="">All stages</option>
            {FILTER_STAGES.map((s) => (
              <option key={s} value={s}>
                {ITEM_STAGE_LABEL[s]}
              </option>
            ))}
          </select>
          <select aria-label="Flagged" value={flagged} onChange={(e) => (setFlagged(e.target.value), reset())}>
            <option value="">Flagged or not</option>
            <option value="true">Flagged</option>
            <option value="false">Not flagged</option>
          </select>
          <input aria-label="External id" placeholder="External id" value={ext} onChange={(e) => setExt(e.target.value)} />
          <button type="submit" className="btn">
            Search
          </button>
        </form>
      </div>
      {page.isPending && <Spinner />}
      <ErrorMessage error={page.error} title="Could not list the items." />
      {page.data && page.data.items.length === 0 && <p className="muted empty-line">No items match.</p>}
      {page.data && page.data.items.length > 0 && (
        <table className="table items-table" aria-label="Items">
          <thead>
            <tr>
              <th>External id</th>
              <th>Stage</th>
              <th>Language</th>
              <th className="num-col">Labels</th>
              <th>Ground truth</th>
              <th>Decided</th>
            </tr>
          </thead>
          <tbody>
            {page.data.items.map((it) => (
              <tr key={it.id} onClick={() => onOpen(it.id)} data-external-id={it.external_id}>
                <td>
                  <button type="button" className="link-btn" onClick={(e) => (e.stopPropagation(), onOpen(it.id))}>
                    <code title={it.external_id}>{unitName(it.external_id)}</code>
                  </button>
                  {it.flag && <span className="stage-chip stage-dropped flag-chip">flagged</span>}
                </td>
                <td>
                  <span className={`stage-chip stage-${it.stage}`}>{ITEM_STAGE_LABEL[it.stage] ?? it.stage}</span>
                </td>
                <td className={it.language ? undefined : "muted"}>{it.language ?? "—"}</td>
                <td className="num-col">{it.annotations.filter((a) => a.status === "submitted").length}</td>
                <td>
                  <Provenance item={it} names={names} />
                </td>
                <td className="muted">{it.ground_truth ? formatDateTime(it.ground_truth.provenance.at) : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="pager">
        <button type="button" className="btn btn-sm" disabled={cursors.length < 2} onClick={() => setCursors((c) => c.slice(0, -1))}>
          Previous
        </button>
        <span className="muted">Page {cursors.length}</span>
        <button
          type="button"
          className="btn btn-sm"
          disabled={!page.data?.next_cursor}
          onClick={() => page.data?.next_cursor && setCursors((c) => [...c, page.data!.next_cursor])}
        >
          Next
        </button>
      </div>
    </div>
  );
}

function Provenance({ item, names }: { item: ItemRecord; names: Map<string, string> }) {
  const gt = item.ground_truth;
  if (!gt) return <span className="muted">{item.stage === "dropped" ? item.drop_reason || "dropped" : "—"}</span>;
  const p = gt.provenance;
  const by = p.by ? names.get(p.by) : undefined;
  return (
    <span className="prov" data-provenance={p.kind}>
      <span className={`prov-chip prov-${p.kind}`}>{PROVENANCE[p.kind] ?? p.kind}</span>
      {by && <span className="muted"> by {by}</span>}
      {gt.revision > 1 && <span className="muted"> · rev. {gt.revision}</span>}
    </span>
  );
}
