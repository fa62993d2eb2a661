const dateFmt = new Intl.DateTimeFormat(undefined, { year: "numeric", month: "short", day: "numeric" });
const dateTimeFmt = new Intl.DateTimeFormat(undefined, {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});

function parse(iso: string | null | undefined): Date | null {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
}

export function formatDate(iso: string | null | undefined, fallback = "—"): string {
  const d = parse(iso);
  return d ? dateFmt.format(d) : fallback;
}

export function formatDateTime(iso: string | null | undefined, fallback = "—"): string {
  const d = parse(iso);
  return d ? dateTimeFmt.format(d) : fallback;
}
