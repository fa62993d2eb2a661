// Types of the /api/v1 contract for sessions, users, tokens, projects and
// members: aliases of the types generated from docs/openapi.yaml. Hand-written
// only where the document is silent (marked so).
import type { Component, RequestBody, ResponseBody } from "./contract";

/** Identifiers are opaque strings; the UI only echoes them back in URLs. */
export type ID = string;

export type User = Component<"User">;
/** What login, refresh and a password change answer; the refresh token is in an HttpOnly cookie. */
export type AuthResponse = Component<"TokenPair">;
export type LoginRequest = RequestBody<"login">;
export type CreateUserRequest = RequestBody<"createUser">;

/** What a personal access token may do. */
export type TokenScope = Component<"Scope">;
/** Every token scope, in the order the UI offers them. */
export const TOKEN_SCOPES = ["read", "annotate", "manage", "admin"] as const satisfies readonly TokenScope[];

export type PersonalToken = Component<"PersonalAccessToken">;
/** Returned once, on creation: `token` is never shown again. */
export type CreatedPersonalToken = ResponseBody<"createToken", 201>;
export type CreateTokenRequest = RequestBody<"createToken">;

/** A one-time password reset link an administrator hands over. */
export type PasswordResetLink = ResponseBody<"issuePasswordReset", 201>;

export type ProjectRole = Component<"Role">;
/** Every project role, in the order the UI lists them. */
export const PROJECT_ROLES = ["lead", "annotator", "reviewer", "adjudicator", "viewer"] as const satisfies readonly ProjectRole[];

export type Project = Component<"Project">;
export type CreateProjectRequest = RequestBody<"createProject">;
export type Member = Component<"Member">;
/** What setting someone's roles did: added (or changed), invited by email, or removed. */
export type MemberChange = ResponseBody<"setMember">;

/** An invitation waiting for the signed-in person. */
export type Invitation = ResponseBody<"myInvitations">[number];

/** The error body every failure has. */
export type ErrorBody = Component<"Error">;

/**
 * Stable machine-readable error codes: the server's, and (hand-written) the
 * ones the client makes itself when there is no server body — `network_error`,
 * `http_error`, `aborted` — or that a newer server may send.
 */
export type ErrorCode = ErrorBody["error"]["code"] | "network_error" | "http_error" | "aborted" | (string & {});

/** One entry of GET /templates. */
export type TemplateSummary = ResponseBody<"listTemplates">[number];
/** A built-in template with its guidelines, schema, extra forms and samples. */
export type TemplateDetail = Component<"Template">;
export type TemplateForm = NonNullable<TemplateDetail["forms"]>[number];
