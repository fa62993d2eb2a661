import type { ApiClient } from "./client";
import type { CreateProjectRequest, CreateTokenRequest, CreateUserRequest, ID, ProjectRole, User } from "./types";

/** Typed calls for the session, users, tokens, projects and members, grouped by area. */
export function endpoints(c: ApiClient) {
  return {
    me: () => c.get("/me"),
    updateMe: (settings: { locale?: User["locale"] }) => c.updateMe(settings),
    users: {
      list: () => c.get("/users"),
      create: (req: CreateUserRequest) => c.post("/users", { body: req }),
      passwordReset: (uid: ID) => c.post("/users/{uid}/password-reset", { path: { uid } }),
      disable: (uid: ID) => c.post("/users/{uid}/disable", { path: { uid } }),
      enable: (uid: ID) => c.post("/users/{uid}/enable", { path: { uid } }),
    },
    account: {
      changePassword: (current: string, next: string) => c.changePassword(current, next),
      resetPassword: (token: string, newPassword: string) =>
        c.post("/auth/password-reset", { body: { token, new_password: newPassword }, auth: false }),
    },
    invitations: {
      mine: () => c.get("/me/invitations"),
      accept: (iid: ID) => c.post("/me/invitations/{iid}/accept", { path: { iid } }),
      decline: (iid: ID) => c.post("/me/invitations/{iid}/decline", { path: { iid } }),
    },
    tokens: {
      list: () => c.get("/me/tokens"),
      create: (req: CreateTokenRequest) => c.post("/me/tokens", { body: req }),
      revoke: (tid: ID) => c.delete("/me/tokens/{tid}", { path: { tid } }),
    },
    projects: {
      list: () => c.get("/projects"),
      get: (pid: ID) => c.get("/projects/{pid}", { path: { pid } }),
      create: (req: CreateProjectRequest) => c.post("/projects", { body: req }),
      members: (pid: ID) => c.get("/projects/{pid}/members", { path: { pid } }),
      /** Invitations by email not accepted yet (leads). */
      invitations: (pid: ID) => c.get("/projects/{pid}/invitations", { path: { pid } }),
      setMemberRoles: (pid: ID, uid: ID, roles: ProjectRole[]) => c.put("/projects/{pid}/members/{uid}", { path: { pid, uid }, body: { roles } }),
      /** The languages a member reads (BCP 47 tags); none means every language. */
      setMemberLanguages: (pid: ID, uid: ID, languages: string[]) =>
        c.put("/projects/{pid}/members/{uid}", { path: { pid, uid }, body: { languages } }),
    },
  };
}

export type Endpoints = ReturnType<typeof endpoints>;
