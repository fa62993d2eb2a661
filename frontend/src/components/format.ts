import { activeLocale } from "../i18n";

const options: Record<"date" | "dateTime", Intl.DateTimeFormatOptions> = {
  date: { year: "numeric", month: "short", day: "numeric" },
  dateTime: { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" },
};
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The date formatter of the active language, made once per language. */
function formatter(kind: keyof typeof options): Intl.DateTimeFormat {
  const locale = activeLocale();
  const key = `${kind} ${locale}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, options[kind]);
    formatters.set(key, f);
  }
  return f;
}

function parse(iso: string | null | undefined): Date | null {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
}

export function formatDate(iso: string | null | undefined, fallback = "—"): string {
  const d = parse(iso);
  return d ? formatter("date").format(d) : fallback;
}

export function formatDateTime(iso: string | null | undefined, fallback = "—"): string {
  const d = parse(iso);
  return d ? formatter("dateTime").format(d) : fallback;
}
