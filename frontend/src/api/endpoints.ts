import type { ApiClient } from "./client";
import type { ResponseBody } from "./contract";
import type {
  CreateProjectRequest,
  CreateTokenRequest,
  CreateUserRequest,
  CreatedPersonalToken,
  ID,
  Invitation,
  Member,
  MemberChange,
  PasswordResetLink,
  PersonalToken,
  Project,
  ProjectRole,
  User,
} from "./types";
import type { ProjectDetail } from "./workflowTypes";

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
    invitations: {
      mine: () => c.get<Invitation[]>("/api/v1/me/invitations"),
      accept: (id: ID) => c.post<void>(`/api/v1/me/invitations/${seg(id)}/accept`),
      decline: (id: ID) => c.post<void>(`/api/v1/me/invitations/${seg(id)}/decline`),
    },
    tokens: {
      list: () => c.get<PersonalToken[]>("/api/v1/me/tokens"),
      create: (req: CreateTokenRequest) => c.post<CreatedPersonalToken>("/api/v1/me/tokens", req),
      revoke: (id: ID) => c.delete(`/api/v1/me/tokens/${seg(id)}`),
    },
    projects: {
      list: () => c.get<Project[]>("/api/v1/projects"),
      get: (pid: ID) => c.get<ProjectDetail>(`/api/v1/projects/${seg(pid)}`),
      create: (req: CreateProjectRequest) => c.post<ProjectDetail>("/api/v1/projects", req),
      members: (pid: ID) => c.get<Member[]>(`/api/v1/projects/${seg(pid)}/members`),
      /** Invitations by email not accepted yet (leads). */
      invitations: (pid: ID) => c.get<ResponseBody<"listInvitations">>(`/api/v1/projects/${seg(pid)}/invitations`),
      setMemberRoles: (pid: ID, uid: ID, roles: ProjectRole[]) =>
        c.put<MemberChange>(`/api/v1/projects/${seg(pid)}/members/${seg(uid)}`, { roles }),
      /** The languages a member reads (BCP 47 tags); none means every language. */
      setMemberLanguages: (pid: ID, uid: ID, languages: string[]) =>
        c.put<MemberChange>(`/api/v1/projects/${seg(pid)}/members/${seg(uid)}`, { languages }),
    },
  };
}

export type Endpoints = ReturnType<typeof endpoints>;
