export { AuthProvider, useAuth, useCurrentUser } from "./AuthProvider";
export type { AuthState, AuthStatus } from "./AuthProvider";
export { RequireAuth, RequireAdmin } from "./RequireAuth";
