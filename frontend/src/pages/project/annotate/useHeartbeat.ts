import { useEffect, useState } from "react";
import { ApiError } from "../../../api";
import type { WorkflowApi } from "../../../api/workflow";

/** Extends the lease of the open assignment every minute while the page is open. */
export function useHeartbeat(api: WorkflowApi, aid: string | null, everyMs = 60_000) {
  const [lost, setLost] = useState(false);
  useEffect(() => {
    setLost(false);
    if (!aid) return;
    const t = window.setInterval(() => {
      api.heartbeat(aid).catch((err) => {
        if (err instanceof ApiError && (err.code === "lease_lost" || err.status === 404)) setLost(true);
      });
    }, everyMs);
    return () => window.clearInterval(t);
  }, [api, aid, everyMs]);
  return lost;
}
