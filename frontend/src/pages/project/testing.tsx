// Test helpers for project tabs: the providers, a router and the project
// context a tab expects, over a fake fetch.
import type { ReactNode } from "react";
import { render } from "@testing-library/react";
import { MemoryRouter, Outlet, Route, Routes } from "react-router-dom";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { ApiClient, ApiProvider } from "../../api";
import type { ProjectDetail } from "../../api/workflowTypes";
import { fakeFetch, memoryStorage } from "../../test/fakeApi";
import type { ProjectContext } from "./useProject";

export function renderInProject(
  element: ReactNode,
  project: ProjectDetail,
  routes: Parameters<typeof fakeFetch>[0],
  path = "/",
  qc = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } }),
) {
  const f = fakeFetch(routes);
  const client = new ApiClient({ fetch: f.fetch, storage: memoryStorage(), locks: null });
  const view = render(
    <ApiProvider client={client}>
      <QueryClientProvider client={qc}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route element={<Outlet context={{ project } satisfies ProjectContext} />}>
              <Route path="*" element={element} />
            </Route>
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </ApiProvider>,
  );
  return { ...view, calls: f.calls, fetch: f.fetch, client, qc };
}
