export { ApiClient, SESSION_KEY } from "./client";
export type { ApiClientOptions, TokenStorage } from "./client";
export { ApiError, errorMessage } from "./errors";
export { endpoints } from "./endpoints";
export type { Endpoints } from "./endpoints";
export { ApiProvider, useApi, useApiClient } from "./context";
export { queryKeys } from "./queryKeys";
export * from "./types";
