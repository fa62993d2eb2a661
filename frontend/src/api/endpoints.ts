import type { ApiClient } from "./client";
import type {
  CreateProjectRequest,
  CreateTokenRequest,
  CreateUserRequest,
  CreatedPersonalToken,
  ID,
  Member,
  PasswordResetLink,
  PersonalToken,
  Project,
  ProjectRole,
  User,
} from "./types";

const seg = (id: ID) => encodeURIComponent(id);

/** Typed calls for every /api/v1 endpoint the UI uses, grouped by area. */
export function endpoints(c: ApiClient) {
  return {
    me: () => c.get<User>("/api/v1/me"),
    users: {
      list: () => c.get<User[]>("/api/v1/users"),
      create: (req: CreateUserRequest) => c.post<User>("/api/v1/users", req),
      passwordReset: (uid: ID) => c.post<PasswordResetLink>(`/api/v1/users/${seg(uid)}/password-reset`),
      disable: (uid: ID) => c.post<User>(`/api/v1/users/${seg(uid)}/disable`),
      enable: (uid: ID) => c.post<User>(`/api/v1/users/${seg(uid)}/enable`),
    },
    account: {
      changePassword: (current: string, next: string) => c.changePassword(current, next),
      resetPassword: (token: string, newPassword: string) =>
        c.request<void>("POST", "/api/v1/auth/password-reset", { token, new_password: newPassword }, { auth: false }),
    },
    tokens: {
      list: () => c.get<PersonalToken[]>("/api/v1/me/tokens"),
      create: (req: CreateTokenRequest) => c.post<CreatedPersonalToken>("/api/v1/me/tokens", req),
      revoke: (id: ID) => c.delete(`/api/v1/me/tokens/${seg(id)}`),
    },
    projects: {
      list: () => c.get<Project[]>("/api/v1/projects"),
      get: (pid: ID) => c.get<Project>(`/api/v1/projects/${seg(pid)}`),
      create: (req: CreateProjectRequest) => c.post<Project>("/api/v1/projects", req),
      members: (pid: ID) => c.get<Member[]>(`/api/v1/projects/${seg(pid)}/members`),
      setMemberRoles: (pid: ID, uid: ID, roles: ProjectRole[]) =>
        c.put<Member>(`/api/v1/projects/${seg(pid)}/members/${seg(uid)}`, { roles }),
    },
  };
}

export type Endpoints = ReturnType<typeof endpoints>;
