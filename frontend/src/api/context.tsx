import { createContext, useContext, useMemo, type ReactNode } from "react";
import { ApiClient } from "./client";
import { endpoints, type Endpoints } from "./endpoints";

interface ApiContextValue {
  client: ApiClient;
  api: Endpoints;
}

const ApiContext = createContext<ApiContextValue | null>(null);

/** Provides one ApiClient to the tree; tests pass their own. */
export function ApiProvider({ client, children }: { client: ApiClient; children: ReactNode }) {
  const value = useMemo(() => ({ client, api: endpoints(client) }), [client]);
  return <ApiContext.Provider value={value}>{children}</ApiContext.Provider>;
}

function useApiContext(): ApiContextValue {
  const ctx = useContext(ApiContext);
  if (!ctx) throw new Error("useApi must be used inside <ApiProvider>");
  return ctx;
}

/** The typed endpoint functions. */
export function useApi(): Endpoints {
  return useApiContext().api;
}

/** The underlying client (session handling). */
export function useApiClient(): ApiClient {
  return useApiContext().client;
}
