// Test helpers: the providers the form needs (API client for media, react-query).
import type { ReactNode } from "react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { ApiClient, ApiProvider } from "../api";
import { fakeFetch, memoryStorage } from "../test/fakeApi";

export function FormProviders({ children, routes = {} }: { children: ReactNode; routes?: Parameters<typeof fakeFetch>[0] }) {
  const client = new ApiClient({ fetch: fakeFetch(routes).fetch, storage: memoryStorage(), locks: null });
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return (
    <ApiProvider client={client}>
      <QueryClientProvider client={qc}>{children}</QueryClientProvider>
    </ApiProvider>
  );
}
