// The API contract as TypeScript: the types generated from docs/openapi.yaml
// (schema.gen.ts), with the two places where the document is looser than what
// the UI relies on made precise in one spot (see WithUi).
import type { components, operations } from "./schema.gen";
import type { Answers, Schema } from "./taskSchema";

type Generated = components["schemas"];

/** Property names that hold answers (the document's free-form `Answers`). */
type AnswerKeys = "answers" | "corrected_answers" | "draft";

/** A generated Answers becomes the typed Answers; null, undefined and lists (e.g. people's answers to one question) stay. */
type TypedAnswers<V> = V extends readonly unknown[] ? V : V extends object ? Answers : V;
/** A generated task schema becomes Schema (the generator adds the file's `$defs` as a property). */
type TypedSchema<V> = V extends object ? Schema : V;

/**
 * A generated type with its answers and task schemas typed. note: the document
 * declares `Answers` as an object of any values (each kind's value is described
 * in docs/tasks.md), and openapi-typescript turns the external task-schema.json
 * into a type whose `$defs` is a required property; both are swapped by
 * property name here so that nothing else needs a cast.
 */
export type WithUi<T> = T extends readonly (infer U)[]
  ? WithUi<U>[]
  : T extends object
    ? { [K in keyof T]: K extends AnswerKeys ? TypedAnswers<T[K]> : K extends "schema" ? TypedSchema<T[K]> : WithUi<T[K]> }
    : T;

/** A component schema of the document, by name. */
export type Component<Name extends keyof Generated> = WithUi<Generated[Name]>;

type Responses<Op extends keyof operations> = operations[Op]["responses"];
type JsonOf<R> = R extends { content: { "application/json": infer B } } ? B : never;

/** The JSON body an operation answers with (200 unless another status is named). */
export type ResponseBody<Op extends keyof operations, Status extends keyof Responses<Op> = 200 & keyof Responses<Op>> = WithUi<
  JsonOf<Responses<Op>[Status]>
>;

/** The JSON body an operation takes. */
export type RequestBody<Op extends keyof operations> = WithUi<
  operations[Op] extends { requestBody?: { content: { "application/json": infer B } } } ? B : never
>;

/** An operation's query parameters. */
export type QueryParams<Op extends keyof operations> = NonNullable<operations[Op]["parameters"]["query"]>;
