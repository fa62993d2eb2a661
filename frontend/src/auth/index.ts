export { AuthProvider, useAuth, useCurrentUser, useOptionalUser } from "./AuthProvider";
export type { AuthState, AuthStatus } from "./AuthProvider";
export { RequireAuth, RequireAdmin } from "./RequireAuth";
