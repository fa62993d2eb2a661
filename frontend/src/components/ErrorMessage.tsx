import { ApiError } from "../api";
import { useTranslation } from "react-i18next";

/** Error codes whose meaning is said in the reader's language (the server speaks English). */
const CODES = new Set([
  "bad_request", "invalid_json", "validation_failed", "unauthorized", "token_expired", "forbidden", "not_found", "conflict",
  "payload_too_large", "rate_limited", "internal", "unavailable", "network_error", "http_error",
]);

/** Shows an error from the API (message plus field details) or any thrown value. */
export function ErrorMessage({ error, title }: { error: unknown; title?: string }) {
  const { t, i18n } = useTranslation();
  if (!error) return null;
  const api = error instanceof ApiError ? error : null;
  const serverMessage = api?.message || (error instanceof Error ? error.message : t("errors.somethingWrong"));
  // note: in English the server's own message is shown; another language says what the code means, then the server's words
  const translated = api && !i18n.language.startsWith("en") && CODES.has(api.code) ? t(`errors.code.${api.code}`) : null;
  const message = translated ?? serverMessage;
  const fields = api ? Object.entries(api.fieldErrors()) : [];
  const hints: Record<string, string> = {
    forbidden: t("errors.hint.forbidden"),
    not_found: t("errors.hint.not_found"),
    rate_limited: t("errors.hint.rate_limited"),
  };
  const hint = api && !api.message && !translated ? hints[api.code] : undefined;
  return (
    <div className="notice notice-error" role="alert">
      {title && <strong className="notice-title">{title}</strong>}
      <span>{message}</span>
      {hint && <span> {hint}</span>}
      {translated && api?.message && <span className="muted"> {t("errors.serverSaid", { message: api.message })}</span>}
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
