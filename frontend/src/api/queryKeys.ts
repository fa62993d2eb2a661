import type { ID } from "./types";

/** Query keys for @tanstack/react-query, in one place so invalidation matches. */
export const queryKeys = {
  me: ["me"] as const,
  users: ["users"] as const,
  tokens: ["tokens"] as const,
  projects: ["projects"] as const,
  invitations: ["invitations"] as const,
  project: (pid: ID) => ["projects", pid] as const,
  members: (pid: ID) => ["projects", pid, "members"] as const,
};
