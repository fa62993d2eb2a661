import type { Computed } from "./useFigures";

/** Says that newer figures are being computed; nothing once they are ready. */
export function ComputingBadge({ status }: { status?: Computed["status"] }) {
  if (status !== "computing") return null;
  return (
    <span className="badge badge-computing" role="status">
      Computing newer figures…
    </span>
  );
}
