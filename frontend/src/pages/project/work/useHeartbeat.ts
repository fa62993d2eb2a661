import { useEffect, useState } from "react";
import { ApiError } from "../../../api";
import type { WorkflowApi } from "../../../api/workflow";

/** Extends the lease of the open assignment every minute while the page is open; true once the lease is known to be lost. */
export function useHeartbeat(api: WorkflowApi, pid: string, aid: string | null, everyMs = 60_000): boolean {
  const [lostFor, setLostFor] = useState<string | null>(null);
  useEffect(() => {
    if (!aid) return;
    const t = window.setInterval(() => {
      api.heartbeat(pid, aid).catch((err) => {
        if (err instanceof ApiError && (err.code === "lease_lost" || err.status === 404)) setLostFor(aid);
      });
    }, everyMs);
    return () => window.clearInterval(t);
  }, [api, pid, aid, everyMs]);
  return aid !== null && lostFor === aid;
}
