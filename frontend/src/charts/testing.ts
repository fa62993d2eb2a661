// For page tests: charts load ECharts lazily, so a test waits for the drawing.
import { screen, waitFor } from "@testing-library/react";
import { expect } from "vitest";

/** The chart labelled `name` once it has drawn its SVG. */
export async function drawnChart(name: RegExp | string): Promise<HTMLElement> {
  await waitFor(() => expect(screen.getByRole("img", { name }).querySelector("svg")).toBeTruthy(), { timeout: 5000 });
  return screen.getByRole("img", { name });
}
