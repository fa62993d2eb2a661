// Types for the Arbiter HTTP API (/api/v1). Hand-written to match the
// server's contract; keep them in step with backend/api.

/** Identifiers are opaque strings; the UI only echoes them back in URLs. */
export type ID = string;

export interface User {
  id: ID;
  email: string;
  name: string;
  is_admin: boolean;
  disabled?: boolean;
}

/** A login, refresh or password change; the refresh token is in an HttpOnly cookie. */
export interface AuthResponse {
  access_token: string;
  /** Access token lifetime in seconds. */
  expires_in: number;
  user: User;
}

export interface LoginRequest {
  email: string;
  password: string;
}

export interface CreateUserRequest {
  email: string;
  name: string;
  password: string;
  is_admin: boolean;
}

/** What a personal access token may do. */
export const TOKEN_SCOPES = ["read", "annotate", "manage", "admin"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

export interface PersonalToken {
  id: ID;
  name: string;
  scopes: TokenScope[];
  /** First characters of the token, enough to recognise it. */
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
}

/** Returned once, on creation: `token` is never shown again. */
export interface CreatedPersonalToken extends PersonalToken {
  token: string;
}

export interface CreateTokenRequest {
  name: string;
  scopes: TokenScope[];
  expires_in_days?: number;
}

/** A one-time password reset link an administrator hands over. */
export interface PasswordResetLink {
  token: string;
  /** The UI page that takes it, with the token in the fragment. */
  path: string;
  expires_at: string;
}

export const PROJECT_ROLES = [
  "lead",
  "annotator",
  "reviewer",
  "adjudicator",
  "viewer",
] as const;

export type ProjectRole = (typeof PROJECT_ROLES)[number];

export interface Project {
  id: ID;
  name: string;
  description: string;
  created_at: string;
  my_roles: ProjectRole[];
}

export interface CreateProjectRequest {
  name: string;
  description: string;
}

export interface Member {
  user_id: ID;
  email: string;
  name: string;
  roles: ProjectRole[];
}

/** Stable machine-readable error codes sent by the server. */
export type ErrorCode =
  | "unauthorized"
  | "token_expired"
  | "forbidden"
  | "not_found"
  | "invalid_json"
  | "validation_failed"
  | "conflict"
  | "rate_limited"
  | "payload_too_large"
  // Produced by the client itself when no server error body is available.
  | "network_error"
  | "http_error"
  | (string & {});

export interface ErrorBody {
  error: {
    code: ErrorCode;
    message: string;
    details?: unknown;
  };
}
