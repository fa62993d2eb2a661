import { describe, expect, it } from "vitest";
import { correlationOption, histogramOption, judgeScatterOption, ratioBarsOption } from "./insight";

describe("insight chart options", () => {
  it("colours ratios against ρ and draws ρ as a line", () => {
    const o = ratioBarsOption([{ label: "A", ratio: 1.2, met: true }, { label: "B", ratio: 0.4, met: false }], 0.95) as {
      series: { data: { itemStyle: { color: string } }[]; markLine: { data: { yAxis: number }[] } }[];
      yAxis: { max: number };
    };
    expect(o.series[0].data[0].itemStyle.color).not.toBe(o.series[0].data[1].itemStyle.color);
    expect(o.series[0].markLine.data).toEqual([{ yAxis: 0.95 }]);
    expect(o.yAxis.max).toBe(2);
  });

  it("stacks what each bin needs on the histogram and marks the level the spread target asks", () => {
    const o = histogramOption([{ score: 0, count: 1, needs: 2 }, { score: 1, count: 5, needs: 0 }], 3) as {
      series: { data: number[]; markLine?: { data: { yAxis: number }[] } }[];
    };
    expect(o.series.map((s) => s.data)).toEqual([[1, 5], [2, 0]]);
    expect(o.series[0].markLine?.data).toEqual([{ yAxis: 3 }]);
  });

  it("mirrors each correlation, draws the diagonal it is given, shows undefined ones as n/a and outlines flagged pairs", () => {
    const o = correlationOption(["a", "b", "c"], new Map([["a", "A"]]), [
      { a: "a", b: "a", r: 1, flagged: false },
      { a: "b", b: "b", r: 1, flagged: false },
      { a: "c", b: "c", r: null, flagged: false },
      { a: "a", b: "b", r: 0.7, flagged: true },
      { a: "a", b: "c", r: null, flagged: false },
    ]) as {
      series: { data: { value: number[]; itemStyle?: object }[]; label: { formatter: () => string } }[];
      yAxis: { data: string[] };
      visualMap: { seriesIndex: number }[];
    };
    const [cells, na] = o.series.map((s) => s.data);
    expect(cells.filter((c) => c.value[2] === 0.7).map((c) => c.value.slice(0, 2))).toEqual([[1, 0], [0, 1]]);
    expect(cells.filter((c) => c.value[2] === 0.7).every((c) => c.itemStyle)).toBe(true);
    expect(cells.filter((c) => c.value[2] === 1).map((c) => c.value.slice(0, 2))).toEqual([[0, 0], [1, 1]]);
    expect(cells).toHaveLength(4);
    // the constant question's diagonal and its pair with a are n/a, outside the colour scale
    expect(na.map((c) => c.value.slice(0, 2))).toEqual([[2, 2], [2, 0], [0, 2]]);
    expect(o.series[1].label.formatter()).toBe("n/a");
    expect(o.visualMap.map((v) => v.seriesIndex)).toEqual([0, 1]);
    expect(o.yAxis.data).toEqual(["A", "b", "c"]);
  });

  it("sizes scatter dots by count on axes with room around the scale", () => {
    const o = judgeScatterOption([{ human: 1, judge: 2, count: 4 }, { human: 5, judge: 5, count: 1 }], "m1") as {
      xAxis: { min: number; max: number };
      series: { data: number[][] }[];
    };
    expect([o.xAxis.min, o.xAxis.max]).toEqual([0.5, 5.5]);
    expect(o.series[0].data).toEqual([[1, 2, 4], [5, 5, 1]]);
  });
});
