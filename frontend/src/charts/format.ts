// Number formatting shared by the charts and the tables beside them. A null
// figure (undefined for the data, e.g. no gold) shows as a dash.

/** A figure with `digits` decimals, or "—". */
export function fixed(v: number | null | undefined, digits = 2): string {
  return v === null || v === undefined || Number.isNaN(v) ? "—" : v.toFixed(digits);
}

/** A share 0..1 as a percentage, or "—". */
export function percent(v: number | null | undefined, digits = 1): string {
  return v === null || v === undefined || Number.isNaN(v) ? "—" : `${(v * 100).toFixed(digits)} %`;
}

/** Seconds, or "—". */
export function seconds(v: number | null | undefined): string {
  return v === null || v === undefined || Number.isNaN(v) ? "—" : `${v < 10 ? v.toFixed(1) : Math.round(v)} s`;
}

/** An interval [lo, hi], or "—". */
export function interval(ci: readonly number[] | null | undefined, digits = 2): string {
  return ci && ci.length === 2 ? `[${ci[0].toFixed(digits)}, ${ci[1].toFixed(digits)}]` : "—";
}
