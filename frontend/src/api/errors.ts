import type { FieldProblem } from "./taskSchema";
import type { ErrorBody, ErrorCode } from "./types";

/** An error answered by the API (or the network), in the server's one shape. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: unknown;

  constructor(status: number, code: ErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.details = details;
  }

  /**
   * Field-level problems from `details`, when the server sent them as
   * `{field: message}` or `{field: {code, message}}`.
   */
  fieldErrors(): Record<string, string> {
    return Object.fromEntries(Object.entries(this.problems()).map(([field, p]) => [field, p.message]));
  }

  /**
   * Field-level problems with their codes (`{field: {code, message}}`); a
   * bare message gets the code "invalid".
   */
  problems(): Record<string, FieldProblem> {
    const out: Record<string, FieldProblem> = {};
    const d = this.details;
    if (!d || typeof d !== "object" || Array.isArray(d)) return out;
    for (const [field, v] of Object.entries(d as Record<string, unknown>)) {
      if (typeof v === "string") out[field] = { code: "invalid", message: v };
      else if (v && typeof v === "object") {
        const o = v as { code?: unknown; message?: unknown };
        out[field] = { code: typeof o.code === "string" ? o.code : "invalid", message: typeof o.message === "string" ? o.message : "Invalid value." };
      }
    }
    return out;
  }
}

function isErrorBody(v: unknown): v is ErrorBody {
  if (!v || typeof v !== "object") return false;
  const e = (v as { error?: unknown }).error;
  return (
    !!e &&
    typeof e === "object" &&
    typeof (e as { code?: unknown }).code === "string" &&
    typeof (e as { message?: unknown }).message === "string"
  );
}

/** Turns a non-2xx response into an ApiError, whatever its body holds. */
export async function errorFromResponse(res: Response): Promise<ApiError> {
  let text = "";
  try {
    text = await res.text();
  } catch {
    // Body unreadable: fall through to the generic error.
  }
  if (text) {
    try {
      const body: unknown = JSON.parse(text);
      if (isErrorBody(body)) {
        return new ApiError(res.status, body.error.code, body.error.message, body.error.details);
      }
    } catch {
      // Not JSON (a proxy page, a panic trace): use the generic error below.
    }
  }
  const reason = res.statusText || `HTTP ${res.status}`;
  return new ApiError(res.status, "http_error", `The server answered ${res.status} (${reason}).`);
}

/** A readable sentence for any thrown value. */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error) return err.message;
  return "Something went wrong.";
}
