import { useEffect, useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { WorkflowPolicy } from "../../../api";
import { useSetupApi, type SetupCheck, type SetupRequest } from "../../../api/setup";

/** The server's verdict on a setup: valid with the policy's defaults filled, or problems by path. */
export type SetupVerdict = { valid: true; workflow: WorkflowPolicy } | { valid: false; errors: Record<string, string> };

/** A verdict from the answer of POST /schemas/validate: its problems keyed by path. */
export function toVerdict(check: SetupCheck): SetupVerdict {
  if (check.valid) return { valid: true, workflow: check.workflow };
  return { valid: false, errors: Object.fromEntries(check.errors.map((p) => [p.field, p.message])) };
}

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
    queryFn: async (): Promise<SetupVerdict> => toVerdict(await api.validate(JSON.parse(key!) as SetupRequest)),
  });
  const pending = req !== null && (JSON.stringify(req) !== key || q.isFetching);
  return { verdict: req && q.data ? q.data : null, error: q.error, checking: pending };
}
