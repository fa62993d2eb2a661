import { useState } from "react";
import { QueryClientProvider } from "@tanstack/react-query";
import { BrowserRouter } from "react-router-dom";
import { ApiClient, ApiProvider } from "./api";
import { AuthProvider } from "./auth";
import { createQueryClient } from "./queryClient";
import { AppRoutes } from "./routes";

/** The whole app with its providers; tests pass their own client. */
export function App({ client }: { client?: ApiClient }) {
  const [apiClient] = useState(() => client ?? new ApiClient());
  const [queryClient] = useState(createQueryClient);
  return (
    <ApiProvider client={apiClient}>
      <QueryClientProvider client={queryClient}>
        <AuthProvider>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </AuthProvider>
      </QueryClientProvider>
    </ApiProvider>
  );
}
