import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useSetupApi } from "../../../api/setup";
import { workflowKeys } from "../../../api/workflow";
import { ErrorMessage } from "../../../components/ErrorMessage";
import type { ImportPool } from "../../../api/workflowTypes";
import { ImportResult, PoolChoice } from "./ImportCard";
import "./items.css";

/**
 * Items with their media: a zip archive of the files and an NDJSON file whose
 * inputs name files of the archive ("media/apple.png"). Each file is stored
 * once per project; the server answers with the import's report. The items
 * go into production or the calibration pool.
 */
export function MediaImportCard({ pid, pool: shownPool, onPool }: { pid: string; pool?: ImportPool; onPool?: (pool: ImportPool) => void }) {
  const [ownPool, setOwnPool] = useState<ImportPool>("production");
  const pool = shownPool ?? ownPool;
  const setup = useSetupApi();
  const qc = useQueryClient();
  const [media, setMedia] = useState<File | null>(null);
  const [items, setItems] = useState<File | null>(null);
  const run = useMutation({
    mutationFn: () => setup.importArchive(pid, media!, items!, pool),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: workflowKeys.itemsAll(pid) });
      void qc.invalidateQueries({ queryKey: workflowKeys.stats(pid) });
    },
  });
  return (
    <div className="card import-card" data-pool={pool}>
      <h2 className="card-title">Import items with media</h2>
      <p className="muted">
        A zip of the media files and the items file whose inputs name them by path, e.g. <code>{'"image": "media/apple.png"'}</code>.
      </p>
      <PoolChoice name="media-import-pool" pool={pool} onChange={onPool ?? setOwnPool} />
      <div className="media-import-row">
        <label className="field">
          <span>Media archive (.zip)</span>
          <input type="file" accept=".zip,application/zip" onChange={(e) => setMedia(e.target.files?.[0] ?? null)} />
        </label>
        <label className="field">
          <span>Items naming the media (.jsonl)</span>
          <input type="file" accept=".jsonl,.ndjson,application/x-ndjson,application/json" onChange={(e) => setItems(e.target.files?.[0] ?? null)} />
        </label>
        <button type="button" className="btn btn-primary" disabled={!media || !items || run.isPending} onClick={() => run.mutate()}>
          {run.isPending ? "Importing…" : pool === "calibration" ? "Import with media into the calibration pool" : "Import with media"}
        </button>
      </div>
      <ErrorMessage error={run.error} title="The import failed." />
      {run.data && <ImportResult report={run.data} />}
    </div>
  );
}
