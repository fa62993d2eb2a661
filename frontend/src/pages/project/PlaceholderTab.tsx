import type { ReactNode } from "react";

/** Marks a project section whose capability has not shipped yet. */
export function PlaceholderTab({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="placeholder">
      <h2>{title}</h2>
      <p>{children}</p>
      <span className="badge badge-soon">Coming soon</span>
    </div>
  );
}
