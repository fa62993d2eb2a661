import { describe, expect, it } from "vitest";
import { render, waitFor } from "@testing-library/react";
import { Chart } from "./Chart";
import { heatmapOption, intervalOption, thresholdBarsOption, trendOption, groupedBarsOption } from "./options";
import { fixed, interval, percent, seconds } from "./format";

describe("chart options", () => {
  it("draws intervals top to bottom in the order given, with the axis reaching below a negative bound", () => {
    const o = intervalOption([
      { label: "Physical adherence", value: 0.61, lo: 0.48, hi: 0.72 },
      { label: "Instruction", value: -0.05, lo: -0.31, hi: 0.2 },
    ]) as { yAxis: { data: string[] }; xAxis: { min: number; max: number } };
    expect(o.yAxis.data).toEqual(["Instruction", "Physical adherence"]);
    expect(o.xAxis.min).toBe(-0.4);
    expect(o.xAxis.max).toBe(1);
  });

  it("leaves out heatmap cells of pairs that share no item", () => {
    const o = heatmapOption([{ name: "Ann" }, { name: "Bo" }], [
      [1, null],
      [null, 1],
    ]) as { series: { data: unknown[] }[] };
    expect(o.series[0].data).toEqual([
      [0, 0, 1],
      [1, 1, 1],
    ]);
  });

  it("colours bars by passed and marks the threshold", () => {
    const o = thresholdBarsOption([{ label: "Ann", value: 0.9, passed: true }, { label: "Bo", value: 0.4, passed: false }], 0.7, "accuracy") as {
      series: { data: { itemStyle: { color: string } }[]; markLine: { data: { yAxis: number }[] } }[];
    };
    expect(o.series[0].data[0].itemStyle.color).not.toBe(o.series[0].data[1].itemStyle.color);
    expect(o.series[0].markLine.data).toEqual([{ yAxis: 0.7 }]);
  });

  it("puts MAD on its own axis", () => {
    const o = trendOption([1, 2], [
      { name: "exact", data: [0.3, 0.5], axis: 0 },
      { name: "MAD", data: [0.98, 0.58], axis: 1 },
    ]) as { yAxis: unknown[]; series: { yAxisIndex: number }[] };
    expect(o.yAxis).toHaveLength(2);
    expect(o.series.map((s) => s.yAxisIndex)).toEqual([0, 1]);
    expect((groupedBarsOption(["q"], [{ name: "Ann", data: [0.5] }], "Yes") as { series: unknown[] }).series).toHaveLength(1);
  });

  it("formats missing figures as a dash", () => {
    expect([fixed(null), percent(undefined), seconds(null), interval(null)]).toEqual(["—", "—", "—", "—"]);
    expect([fixed(0.5), percent(0.529), seconds(4.25), seconds(42.4), interval([0.1, 0.2])]).toEqual(["0.50", "52.9 %", "4.3 s", "42 s", "[0.10, 0.20]"]);
  });
});

describe("Chart", () => {
  it("shows a loading box of the chart's height until the chart library has loaded", async () => {
    const { getByRole, queryByRole, getByLabelText } = render(
      <Chart height={180} label="α per question" option={intervalOption([{ label: "Physical adherence", value: 0.61, lo: 0.48, hi: 0.72 }])} />,
    );
    expect(getByRole("status").textContent).toBe("Drawing the chart…");
    expect(getByLabelText("α per question").style.height).toBe("180px");
    await waitFor(() => expect(getByRole("img", { name: "α per question" }).querySelector("svg")).toBeTruthy(), { timeout: 5000 });
    expect(queryByRole("status")).toBeNull();
  });

  it("renders the option as SVG inside a labelled image", async () => {
    const { getByRole } = render(
      <Chart height={200} label="α per question" option={intervalOption([{ label: "Physical adherence", value: 0.61, lo: 0.48, hi: 0.72 }])} />,
    );
    await waitFor(() => expect(getByRole("img", { name: "α per question" }).querySelector("svg")).toBeTruthy(), { timeout: 5000 });
    const box = getByRole("img", { name: "α per question" });
    expect(box.textContent).toContain("Physical adherence");
  });
});
