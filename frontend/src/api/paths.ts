// The API's routes as TypeScript, keyed by their path in docs/openapi.yaml
// (less the /api/v1 prefix every route shares): what each method of a path
// takes (path and query parameters, a body) and what it answers. ApiClient's
// get, post, put, patch and delete take these keys, so a path that is not in
// the document does not compile.
import type { WithUi } from "./contract";
import type { paths } from "./schema.gen";

/** The prefix of every API route. */
export const API_PREFIX = "/api/v1";

type Prefixed = Extract<keyof paths, `${typeof API_PREFIX}/${string}`>;
type Short<P> = P extends `${typeof API_PREFIX}${infer R}` ? R : never;

/** The HTTP methods the UI sends, as the document names them. */
export type Method = "get" | "put" | "post" | "patch" | "delete";

/** Every API route, e.g. "/projects/{pid}/agreement". */
export type ApiPath = Short<Prefixed>;

/** The routes that answer a method. */
export type PathsFor<M extends Method> = {
  [P in Prefixed]: [NonNullable<paths[P][M]>] extends [never] ? never : Short<P>;
}[Prefixed];

/** The operation of a route and method. */
export type Operation<P extends ApiPath, M extends Method> = NonNullable<paths[Extract<`${typeof API_PREFIX}${P}`, Prefixed>][M]>;

type Parameters<O> = O extends { parameters: infer X } ? X : Record<string, never>;
type PathParams<O> = Parameters<O> extends { path: infer X } ? X : never;
type QueryParams<O> = Parameters<O> extends { query?: infer X } ? NonNullable<X> : never;
type Contents<O> = O extends { requestBody?: { content: infer C } } ? C : never;
/** A JSON body as the UI types it, or a form for a route that takes multipart/form-data. */
type Body<O> =
  | (Contents<O> extends { "application/json": infer B } ? WithUi<B> : never)
  | (Contents<O> extends { "multipart/form-data": unknown } ? FormData : never);
type BodyRequired<O> = O extends { requestBody: unknown } ? true : false;

type PathPart<O> = [PathParams<O>] extends [never] ? { path?: never } : { path: { [K in keyof PathParams<O>]: string } };
type QueryPart<O> = [QueryParams<O>] extends [never] ? { query?: never } : { query?: QueryParams<O> };
type BodyPart<O> = [Body<O>] extends [never] ? { body?: never } : BodyRequired<O> extends true ? { body: Body<O> } : { body?: Body<O> };

/** Extra settings of one request that the document does not describe. */
export interface RequestSettings {
  /** False for the routes that need no session (login, a password reset). */
  auth?: boolean;
  headers?: Record<string, string>;
}

/** The path and query parameters of route P with method M. */
export type Params<P extends ApiPath, M extends Method> = PathPart<Operation<P, M>> & QueryPart<Operation<P, M>>;

/** What a request to route P with method M takes besides its path. */
export type Init<P extends ApiPath, M extends Method> = PathPart<Operation<P, M>> &
  QueryPart<Operation<P, M>> &
  BodyPart<Operation<P, M>> &
  RequestSettings;

/** The init argument, optional when nothing in it is required. */
export type InitArg<P extends ApiPath, M extends Method> = object extends Init<P, M> ? [init?: Init<P, M>] : [init: Init<P, M>];

type SuccessStatus = 200 | 201 | 202 | 203 | 204 | 206;
type JsonOf<R> = R extends { content: { "application/json": infer B } } ? B : undefined;
type Responses<O> = O extends { responses: infer R } ? R : never;

/** What route P answers to method M on success: the JSON body of each 2xx answer, undefined for one without (204). */
export type Reply<P extends ApiPath, M extends Method> = WithUi<
  { [S in keyof Responses<Operation<P, M>> & SuccessStatus]: JsonOf<Responses<Operation<P, M>>[S]> }[keyof Responses<Operation<P, M>> & SuccessStatus]
>;

/** A path segment, escaped. */
export const seg = (id: string) => encodeURIComponent(id);

type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];

/**
 * The query string of a request, "" when nothing is set: unset values
 * (undefined or null) are left out, an empty string is sent (it may mean
 * "any"), a list repeats its key.
 */
export function queryString(query: Record<string, QueryValue> | undefined): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null) continue;
    for (const one of Array.isArray(v) ? v : [v]) q.append(k, String(one));
  }
  const s = q.toString();
  return s ? `?${s}` : "";
}

/**
 * The URL of a route from its template: "/projects/{pid}/agreement" with
 * `{path: {pid: "p 1"}, query: {stage: "label"}}` is
 * "/api/v1/projects/p%201/agreement?stage=label". A parameter the template
 * names and the call leaves out throws (the types already refuse it).
 */
export function routeUrl(path: string, params: { path?: Record<string, string>; query?: object } = {}): string {
  const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const v = params.path?.[name];
    if (v === undefined) throw new Error(`${path}: no value for {${name}}`);
    return seg(v);
  });
  return API_PREFIX + filled + queryString(params.query as Record<string, QueryValue> | undefined);
}
