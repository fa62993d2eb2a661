// Number formatting shared by the charts and the tables beside them, in the active
// language (the units come from the locale's strings). A null figure (undefined for the
// data, e.g. no gold) shows as a dash.
import i18n, { activeLocale } from "../i18n";

const formatters = new Map<string, Intl.NumberFormat>();

/** v with exactly `digits` decimals and no grouping, as toFixed writes it, in the active language. */
function decimals(v: number, digits: number): string {
  const locale = activeLocale();
  const key = `${locale} ${digits}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false });
    formatters.set(key, f);
  }
  return f.format(Object.is(v, -0) ? 0 : v);
}

function missing(v: number | null | undefined): v is null | undefined {
  return v === null || v === undefined || Number.isNaN(v);
}

/** A figure with `digits` decimals, or "—". */
export function fixed(v: number | null | undefined, digits = 2): string {
  return missing(v) ? "—" : decimals(v, digits);
}

/** A share 0..1 as a percentage, or "—". */
export function percent(v: number | null | undefined, digits = 1): string {
  return missing(v) ? "—" : i18n.t("format.percent", { value: decimals(v * 100, digits) });
}

/** Seconds, or "—". */
export function seconds(v: number | null | undefined): string {
  return missing(v) ? "—" : i18n.t("format.seconds", { value: v < 10 ? decimals(v, 1) : decimals(Math.round(v), 0) });
}

/** An interval [lo, hi], or "—". */
export function interval(ci: readonly number[] | null | undefined, digits = 2): string {
  return ci && ci.length === 2 ? `[${decimals(ci[0], digits)}, ${decimals(ci[1], digits)}]` : "—";
}
