import { useEffect, useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { ApiError, type WorkflowPolicy } from "../../../api";
import { useSetupApi, type SetupRequest } from "../../../api/setup";

/** The server's verdict on a setup: valid with the policy's defaults filled, or problems by path. */
export type SetupVerdict = { valid: true; workflow: WorkflowPolicy } | { valid: false; errors: Record<string, string>; message: string };

/** A value that follows `value` once it has stayed the same for delayMs. */
export function useDebounced<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(t);
  }, [value, delayMs]);
  return settled;
}

/**
 * Checks a setup with POST /schemas/validate while it is edited (after a
 * pause in typing); null checks nothing. The last verdict stays while the
 * next one is on its way.
 */
export function useSetupCheck(req: SetupRequest | null, delayMs = 300) {
  const api = useSetupApi();
  const key = useDebounced(req ? JSON.stringify(req) : null, delayMs);
  const q = useQuery({
    queryKey: ["setup-check", key],
    enabled: key !== null,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    queryFn: async (): Promise<SetupVerdict> => {
      try {
        const r = await api.validate(JSON.parse(key!) as SetupRequest);
        return { valid: true, workflow: r.workflow };
      } catch (err) {
        if (err instanceof ApiError && err.status === 422) return { valid: false, errors: err.fieldErrors(), message: err.message };
        throw err;
      }
    },
  });
  const pending = req !== null && (JSON.stringify(req) !== key || q.isFetching);
  return { verdict: req && q.data ? q.data : null, error: q.error, checking: pending };
}
