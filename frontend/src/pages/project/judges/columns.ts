// The leaderboard's columns per kind of question group: which figures of the
// judge report are shown, how they read and which way is better.
import type { JudgeGroup, JudgeReport } from "../../../api/insight";
import { fixed, percent } from "../../../charts";

export interface Column {
  id: string;
  label: string;
  title?: string;
  value: (r: JudgeReport) => number | null | undefined;
  format: (v: number | null | undefined) => string;
  /** Sorting starts with the best first: descending when higher is better. */
  higherBetter: boolean;
}

const share = (id: keyof JudgeReport, label: string, title?: string): Column => ({
  id,
  label,
  title,
  value: (r) => r[id] as number | null | undefined,
  format: (v) => percent(v),
  higherBetter: true,
});
const figure = (id: keyof JudgeReport, label: string, higherBetter: boolean, title?: string): Column => ({
  id,
  label,
  title,
  value: (r) => r[id] as number | null | undefined,
  format: (v) => fixed(v, 3),
  higherBetter,
});

/** The columns of a group, after the model and before the interval and the difference to the best. */
export function columnsFor(g: JudgeGroup): Column[] {
  switch (g.kind) {
    case "binary":
      return [
        share("accuracy", "Accuracy"),
        share("balanced_accuracy", "Balanced acc."),
        share("yes_accuracy", "Yes acc.", "Accuracy on items whose ground truth is Yes"),
        share("no_accuracy", "No acc.", "Accuracy on items whose ground truth is No"),
        figure("mcc", "MCC", true, "Matthews correlation coefficient"),
        ...(g.questions.length > 1
          ? [
              share("exact_match", "Perfect match", "Items where every dimension matches"),
              {
                id: "total_dev",
                label: "|Δ total|",
                title: "Mean absolute deviation of the total score",
                value: (r: JudgeReport) => r.total_score_deviation?.mean_abs,
                format: (v: number | null | undefined) => fixed(v, 2),
                higherBetter: false,
              },
            ]
          : []),
      ];
    case "pairwise":
      return [share("accuracy", "Accuracy"), share("accuracy_without_ties", "Acc. w/o ties", "Accuracy on pairs the ground truth decides"), figure("mcc", "MCC", true)];
    case "score":
      return [
        figure("pearson", "Pearson r", true),
        figure("spearman", "Spearman ρ", true),
        figure("kendall_tau_b", "Kendall τb", true),
        figure("mse", "MSE", false, "Mean squared error"),
        figure("mae", "MAE", false, "Mean absolute error"),
        share("share_over", "Over", "Share of items the judge scores higher"),
        share("share_under", "Under", "Share of items the judge scores lower"),
      ];
  }
}

/** The headline figure's name as the tables read it. */
export const headlineLabel = (h: JudgeGroup["headline"]) => (h === "pearson" ? "Pearson r" : "Accuracy");
