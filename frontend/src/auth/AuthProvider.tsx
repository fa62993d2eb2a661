import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useApiClient, type User } from "../api";
import i18n, { supportedLocale } from "../i18n";

export type AuthStatus = "restoring" | "signed-in" | "signed-out";

export interface AuthState {
  status: AuthStatus;
  user: User | null;
  /** Set when restoring the session failed for a reason other than an ended session. */
  restoreError: string | null;
  login(email: string, password: string): Promise<User>;
  logout(): Promise<void>;
}

const AuthContext = createContext<AuthState | null>(null);

/**
 * AuthProvider keeps who is signed in. On mount it restores a stored session;
 * afterwards it follows the ApiClient, so a session that cannot be refreshed
 * signs the user out wherever that happens.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const [user, setUser] = useState<User | null>(null);
  const [status, setStatus] = useState<AuthStatus>(() => (client.hasStoredSession() ? "restoring" : "signed-out"));
  const [restoreError, setRestoreError] = useState<string | null>(null);

  useEffect(() => {
    return client.onSessionChange((u) => {
      setUser(u);
      setStatus(u ? "signed-in" : "signed-out");
      if (!u) queryClient.clear();
    });
  }, [client, queryClient]);

  useEffect(() => {
    if (!client.hasStoredSession()) return;
    let cancelled = false;
    client
      .restore()
      .then((u) => {
        if (cancelled) return;
        setUser(u);
        setStatus(u ? "signed-in" : "signed-out");
      })
      .catch((err: unknown) => {
        if (cancelled) return;
        setRestoreError(err instanceof Error ? err.message : "Could not restore the session.");
        setStatus("signed-out");
      });
    return () => {
      cancelled = true;
    };
  }, [client]);

  // The signed-in user's locale decides the language; without one, the browser's does.
  const locale = supportedLocale(user?.locale);
  useEffect(() => {
    if (status === "restoring") return;
    if (locale) {
      if (i18n.language !== locale) void i18n.changeLanguage(locale);
    } else {
      void i18n.changeLanguage(); // detects the browser's language again
    }
  }, [status, locale]);

  const login = useCallback((email: string, password: string) => client.login(email, password), [client]);
  const logout = useCallback(() => client.logout(), [client]);

  const value = useMemo<AuthState>(
    () => ({ status, user, restoreError, login, logout }),
    [status, user, restoreError, login, logout],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error("useAuth must be used inside <AuthProvider>");
  return ctx;
}

/** The signed-in user; only for components rendered behind RequireAuth. */
export function useCurrentUser(): User {
  const { user } = useAuth();
  if (!user) throw new Error("useCurrentUser called without a signed-in user");
  return user;
}

/** The signed-in user, or null when nobody is (or outside <AuthProvider>). */
export function useOptionalUser(): User | null {
  return useContext(AuthContext)?.user ?? null;
}
