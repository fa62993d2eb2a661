// The part of js-yaml (4.x, which ships no types) the UI uses.
declare module "js-yaml" {
  export interface Mark {
    line: number;
    column: number;
  }
  export class YAMLException extends Error {
    reason: string;
    mark?: Mark;
  }
  export function load(text: string, opts?: { filename?: string; json?: boolean }): unknown;
  export function dump(value: unknown, opts?: { lineWidth?: number; noRefs?: boolean; sortKeys?: boolean }): string;
}
