import { expect } from "vitest";
import { waitFor } from "@testing-library/react";

/**
 * Waits until every chart on the page is drawn: the chart chunk loads lazily (a busy
 * placeholder until then) and each chart draws its SVG after it mounts, which takes seconds on
 * a busy machine.
 */
export async function chartsDrawn(timeout = 15000): Promise<void> {
  await waitFor(
    () => {
      const charts = [...document.querySelectorAll(".chart")];
      expect(charts.length, "charts on the page").toBeGreaterThan(0);
      for (const c of charts) {
        expect(c.getAttribute("aria-busy"), "a chart still loading").not.toBe("true");
        expect(c.querySelector("svg"), c.getAttribute("data-testid") ?? "chart").not.toBeNull();
      }
    },
    { timeout },
  );
}
