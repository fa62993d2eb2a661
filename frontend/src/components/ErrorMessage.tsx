import { ApiError } from "../api";

const HINTS: Record<string, string> = {
  forbidden: "You do not have permission for this.",
  not_found: "It does not exist, or you cannot see it.",
  rate_limited: "Too many attempts. Wait a minute and try again.",
};

/** Shows an error from the API (message plus field details) or any thrown value. */
export function ErrorMessage({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const api = error instanceof ApiError ? error : null;
  const message = api?.message || (error instanceof Error ? error.message : "Something went wrong.");
  const fields = api ? Object.entries(api.fieldErrors()) : [];
  const hint = api && !api.message ? HINTS[api.code] : undefined;
  return (
    <div className="notice notice-error" role="alert">
      {title && <strong className="notice-title">{title}</strong>}
      <span>{message}</span>
      {hint && <span> {hint}</span>}
      {fields.length > 0 && (
        <ul className="notice-list">
          {fields.map(([field, msg]) => (
            <li key={field}>
              <code>{field}</code>: {msg}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
