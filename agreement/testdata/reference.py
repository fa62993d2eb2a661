#!/usr/bin/python3
"""Reference values for the agreement package's golden tests.

Uses Debian's packages only (python3-nltk, python3-statsmodels,
python3-sklearn, python3-scipy; r-cran-psych for ICC when Rscript exists):

    /usr/bin/python3 agreement/testdata/reference.py
        writes the ref_*.csv data sets and reference.json beside this file;
    /usr/bin/python3 agreement/testdata/reference.py --coupling
        rewrites only the coupling set of reference.json (judge.coupling),
        keeping the other values (ICC needs R);
    /usr/bin/python3 agreement/testdata/reference.py --bench FILE.csv
        times the reference implementations on a ratings file (see
        docs/performance.md).

Where no packaged implementation exists (Gwet's AC1/AC2, Brennan-Prediger,
Conger with missing data, Kendall's W, the ordinal pairwise figures) the
values come from the direct matrix formulas below, written after Gwet's
irrCAC R code; they are an independent second implementation, not the Go
code's output.
"""
import csv
import itertools
import json
import os
import shutil
import subprocess
import sys
import time

import numpy as np
from nltk.metrics.agreement import AnnotationTask
from nltk.metrics.distance import binary_distance, jaccard_distance, masi_distance
from scipy import stats
from sklearn import metrics as skm
from statsmodels.stats import inter_rater as ir

HERE = os.path.dirname(os.path.abspath(__file__))


# ---------------------------------------------------------------- data sets

def make_matrix(rng, units, raters, cats, missing, agree=0.7):
    """units x raters list of lists of category indexes (None = missing)."""
    out = []
    for _ in range(units):
        truth = rng.randint(cats)
        row = []
        for _ in range(raters):
            if rng.rand() < missing:
                row.append(None)
            elif rng.rand() < agree:
                row.append(truth)
            else:
                row.append(rng.randint(cats))
        out.append(row)
    return out


def write_csv(name, matrix, fmt):
    path = os.path.join(HERE, name)
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["unit", "rater", "value"])
        for u, row in enumerate(matrix):
            for r, v in enumerate(row):
                if v is not None:
                    w.writerow(["u%03d" % u, "r%d" % r, fmt(v)])
    return name


# ------------------------------------------------------ reference functions

def triples(matrix, label=lambda v: v):
    return [("r%d" % r, "u%03d" % u, label(v))
            for u, row in enumerate(matrix) for r, v in enumerate(row) if v is not None]


def pairable_counts(matrix):
    counts = {}
    for row in matrix:
        vals = [v for v in row if v is not None]
        if len(vals) >= 2:
            for v in vals:
                counts[v] = counts.get(v, 0) + 1
    return counts


def ordinal_distance(matrix):
    counts = pairable_counts(matrix)
    values = sorted(counts)

    def d(a, b):
        lo, hi = sorted((values.index(a), values.index(b)))
        s = sum(counts[values[g]] for g in range(lo, hi + 1)) - (counts[a] + counts[b]) / 2.0
        return s * s
    return d


def nltk_alpha(matrix, distance, label=lambda v: v):
    return AnnotationTask(data=triples(matrix, label), distance=distance).alpha()


def count_matrix(matrix, cats):
    """units x categories counts, units with no rating removed (irrCAC)."""
    rows = []
    for row in matrix:
        c = [0] * len(cats)
        for v in row:
            if v is not None:
                c[cats.index(v)] += 1
        if sum(c) > 0:
            rows.append(c)
    return np.array(rows, dtype=float)


def gwet_family(matrix, cats, weights=None):
    """Percent agreement, Fleiss, Gwet AC1/AC2, Brennan-Prediger and Conger
    after irrCAC (pa.coeff.raw, fleiss.kappa.raw, gwet.ac1.raw,
    bp.coeff.raw, conger.kappa.raw)."""
    q = len(cats)
    w = np.eye(q) if weights is None else np.asarray(weights, dtype=float)
    a = count_matrix(matrix, cats)
    n = a.shape[0]
    ri = a.sum(axis=1)
    aw = a @ w.T
    sum_q = (a * (aw - 1)).sum(axis=1)
    m2 = ri >= 2
    pa = np.sum(sum_q[m2] / (ri[m2] * (ri[m2] - 1))) / m2.sum()
    pi = (a / ri[:, None]).sum(axis=0) / n
    pe_f = np.sum(w * np.outer(pi, pi))
    pe_g = w.sum() * np.sum(pi * (1 - pi)) / (q * (q - 1))
    pe_bp = w.sum() / q ** 2
    # Conger: per-rater category shares.
    r = len(matrix[0])
    cm = np.zeros((r, q))
    for row in matrix:
        for g, v in enumerate(row):
            if v is not None:
                cm[g, cats.index(v)] += 1
    p = cm / cm.sum(axis=1, keepdims=True)
    pk = p.mean(axis=0)
    s2 = (p.T @ p - r * np.outer(pk, pk)) / (r - 1)
    pe_c = np.sum(w * (np.outer(pk, pk) - s2 / r))
    out = {
        "percent_agreement": pa,
        "fleiss_kappa": (pa - pe_f) / (1 - pe_f),
        "gwet_ac": (pa - pe_g) / (1 - pe_g),
        "brennan_prediger": (pa - pe_bp) / (1 - pe_bp),
        "conger_kappa": (pa - pe_c) / (1 - pe_c),
    }
    return {k: float(v) for k, v in out.items()}


def scott_pi(matrix):
    """Multi-pi with category shares pooled over pairable ratings."""
    counts = pairable_counts(matrix)
    n = float(sum(counts.values()))
    pe = sum((c / n) ** 2 for c in counts.values())
    cats = sorted(counts)
    pa = gwet_family(matrix, cats)["percent_agreement"]
    return (pa - pe) / (1 - pe)


def quadratic_weights(scores):
    s = np.asarray(scores, dtype=float)
    span = s.max() - s.min()
    return 1 - (s[:, None] - s[None, :]) ** 2 / span ** 2


def pairwise_cohen(matrix, weights=None):
    r = len(matrix[0])
    out = []
    for a, b in itertools.combinations(range(r), 2):
        ya = [row[a] for row in matrix if row[a] is not None and row[b] is not None]
        yb = [row[b] for row in matrix if row[a] is not None and row[b] is not None]
        out.append({"a": "r%d" % a, "b": "r%d" % b, "n": len(ya),
                    "percent_agreement": float(np.mean(np.array(ya) == np.array(yb))),
                    "cohen_kappa": float(skm.cohen_kappa_score(ya, yb, weights=weights))})
    return out


def ordinal_pairs(matrix):
    diffs = []
    for row in matrix:
        vals = [v for v in row if v is not None]
        diffs += [abs(x - y) for x, y in itertools.combinations(vals, 2)]
    d = np.array(diffs, dtype=float)
    return {"exact_agreement": float(np.mean(d == 0)), "within_one": float(np.mean(d <= 1)),
            "mean_abs_diff": float(np.mean(d))}


def complete_rows(matrix):
    return np.array([row for row in matrix if all(v is not None for v in row)], dtype=float)


def kendall_w(matrix):
    x = complete_rows(matrix)
    n, m = x.shape
    ranks = np.column_stack([stats.rankdata(x[:, j]) for j in range(m)])
    s = np.sum((ranks.sum(axis=1) - m * (n + 1) / 2.0) ** 2)
    ties = 0.0
    for j in range(m):
        _, t = np.unique(x[:, j], return_counts=True)
        ties += np.sum(t ** 3 - t)
    return float(12 * s / (m ** 2 * (n ** 3 - n) - m * ties))


def icc_numpy(matrix):
    x = complete_rows(matrix)
    n, k = x.shape
    gm = x.mean()
    ssr = k * np.sum((x.mean(axis=1) - gm) ** 2)
    ssc = n * np.sum((x.mean(axis=0) - gm) ** 2)
    sst = np.sum((x - gm) ** 2)
    ssw = sst - ssr
    sse = sst - ssr - ssc
    bms, wms, jms, ems = ssr / (n - 1), ssw / (n * (k - 1)), ssc / (k - 1), sse / ((n - 1) * (k - 1))
    return {
        "icc1": (bms - wms) / (bms + (k - 1) * wms),
        "icc2": (bms - ems) / (bms + (k - 1) * ems + k * (jms - ems) / n),
        "icc3": (bms - ems) / (bms + (k - 1) * ems),
        "icc1k": (bms - wms) / bms,
        "icc2k": (bms - ems) / (bms + (jms - ems) / n),
        "icc3k": (bms - ems) / bms,
    }


def icc_psych(path):
    """psych::ICC on the CSV (long format) through Rscript, or None."""
    if not shutil.which("Rscript"):
        return None
    script = (
        "suppressMessages(library(psych));"
        "d <- read.csv('%s', stringsAsFactors=FALSE);"
        "w <- reshape(d, idvar='unit', timevar='rater', direction='wide');"
        "w <- w[order(w$unit), ]; x <- as.matrix(w[, -1]); x <- x[, order(colnames(x))];"
        "r <- ICC(x, lmer=FALSE)$results;"
        "cat(sprintf('%%.17g', r$ICC), sep='\\n')" % path)
    out = subprocess.run(["Rscript", "-e", script], capture_output=True, text=True, check=True).stdout
    v = [float(s) for s in out.split()]
    return dict(zip(["icc1", "icc2", "icc3", "icc1k", "icc2k", "icc3k"], v))


# ------------------------------------------------------------- golden sets

def ratings_sets(rng):
    sets = {}
    cats4 = ["cat", "dog", "fish", "owl"]
    m = make_matrix(rng, 60, 5, 4, 0.2)
    m = [[None if v is None else cats4[v] for v in row] for row in m]
    cats = sorted(cats4)
    sets["nominal_missing"] = {
        "file": write_csv("ref_nominal_missing.csv", m, str), "level": "nominal",
        "metrics": dict(gwet_family(m, cats), krippendorff_alpha=nltk_alpha(m, binary_distance),
                        scott_pi=scott_pi(m)),
        "pairwise": pairwise_cohen(m)}
    sets["nominal_missing"]["metrics"]["gwet_ac1"] = sets["nominal_missing"]["metrics"].pop("gwet_ac")

    m = make_matrix(rng, 50, 4, 3, 0.0, agree=0.6)
    table, _ = ir.aggregate_raters(np.array(m))
    task = AnnotationTask(data=triples(m))
    sets["nominal_complete"] = {
        "file": write_csv("ref_nominal_complete.csv", m, str), "level": "nominal",
        "metrics": {"fleiss_kappa": float(ir.fleiss_kappa(table, method="fleiss")),
                    "scott_pi": task.pi(), "conger_kappa": task.multi_kappa(),
                    "percent_agreement": task.avg_Ao(),
                    "krippendorff_alpha": task.alpha()}}

    m = make_matrix(rng, 80, 4, 5, 0.15)
    m = [[None if v is None else v + 1 for v in row] for row in m]
    scores = [1, 2, 3, 4, 5]
    fam_w = gwet_family(m, scores, quadratic_weights(scores))
    fam = gwet_family(m, scores)
    sets["ordinal_missing"] = {
        "file": write_csv("ref_ordinal_missing.csv", m, str), "level": "ordinal",
        "metrics": dict(ordinal_pairs(m),
                        alpha_nominal=nltk_alpha(m, binary_distance),
                        alpha_ordinal=nltk_alpha(m, ordinal_distance(m)),
                        alpha_interval=nltk_alpha(m, lambda a, b: float(a - b) ** 2),
                        alpha_ratio=nltk_alpha(m, lambda a, b: 0.0 if a == b else (float(a - b) / (a + b)) ** 2),
                        gwet_ac1=fam["gwet_ac"], gwet_ac2=fam_w["gwet_ac"],
                        fleiss_kappa_quadratic=fam_w["fleiss_kappa"],
                        brennan_prediger_quadratic=fam_w["brennan_prediger"],
                        conger_kappa=fam["conger_kappa"], conger_kappa_quadratic=fam_w["conger_kappa"])}

    two = [row[:2] for row in m]
    sets["two_raters_ordinal"] = {
        "file": write_csv("ref_two_raters_ordinal.csv", two, str), "level": "ordinal",
        "metrics": {"cohen_kappa": pairwise_cohen(two)[0]["cohen_kappa"],
                    "cohen_kappa_linear": pairwise_cohen(two, "linear")[0]["cohen_kappa"],
                    "cohen_kappa_quadratic": pairwise_cohen(two, "quadratic")[0]["cohen_kappa"],
                    "scott_pi": scott_pi(two)}}

    base = rng.normal(10, 3, size=30)
    m = [[float(np.round(b + rng.normal(0.5 * j, 1.5), 1)) for j in range(5)] for b in base]
    m = [[abs(v) for v in row] for row in m]
    path = write_csv("ref_interval_complete.csv", m, lambda v: "%.1f" % v)
    icc = icc_psych(os.path.join(HERE, path))
    sets["interval_complete"] = {
        "file": path, "level": "interval",
        "metrics": dict(icc or icc_numpy(m), kendall_w=kendall_w(m),
                        alpha_interval=nltk_alpha(m, lambda a, b: float(a - b) ** 2),
                        alpha_ratio=nltk_alpha(m, lambda a, b: 0.0 if a == b else (float(a - b) / (a + b)) ** 2)),
        "icc_source": "psych::ICC" if icc else "numpy ANOVA"}
    if icc:
        num = icc_numpy(m)
        assert all(abs(num[k] - icc[k]) < 1e-12 for k in num), (num, icc)
    return sets


def krippendorff_2011():
    """Krippendorff (2011), section E: 4 observers x 12 units, values 1-5."""
    obs = [[1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
           [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
           [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
           [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None]]
    m = [[obs[r][u] for r in range(4)] for u in range(12)]
    return {"file": write_csv("ref_krippendorff2011.csv", m, str), "level": "ordinal",
            "metrics": {"alpha_nominal": nltk_alpha(m, binary_distance),
                        "alpha_ordinal": nltk_alpha(m, ordinal_distance(m)),
                        "alpha_interval": nltk_alpha(m, lambda a, b: float(a - b) ** 2),
                        "alpha_ratio": nltk_alpha(m, lambda a, b: 0.0 if a == b else (float(a - b) / (a + b)) ** 2)}}


def multiselect_set(rng):
    opts = ["a", "b", "c", "d"]
    m = []
    for _ in range(40):
        truth = frozenset(o for o in opts if rng.rand() < 0.4) or frozenset("a")
        row = []
        for _ in range(3):
            if rng.rand() < 0.1:
                row.append(None)
            elif rng.rand() < 0.6:
                row.append(truth)
            else:
                row.append(frozenset(o for o in opts if rng.rand() < 0.4) or frozenset("b"))
        m.append(row)
    path = os.path.join(HERE, "ref_multiselect.jsonl")
    with open(path, "w") as f:
        for u, row in enumerate(m):
            for r, v in enumerate(row):
                if v is not None:
                    f.write(json.dumps({"unit": "u%03d" % u, "rater": "r%d" % r, "value": sorted(v)}) + "\n")
    return {"file": "ref_multiselect.jsonl", "level": "nominal",
            "metrics": {"alpha_masi": nltk_alpha(m, masi_distance),
                        "alpha_jaccard": nltk_alpha(m, jaccard_distance)}}


def judge_sets(rng):
    n = 200
    ref = rng.choice(["yes", "no"], size=n, p=[0.6, 0.4])
    pred = np.where(rng.rand(n) < 0.8, ref, rng.choice(["yes", "no"], size=n))
    pw_ref = rng.choice(["a", "b", "tie"], size=n, p=[0.45, 0.4, 0.15])
    pw_pred = np.where(rng.rand(n) < 0.7, pw_ref, rng.choice(["a", "b", "tie"], size=n))
    x = rng.randint(1, 6, size=n).astype(float)
    y = np.clip(x + rng.randint(-1, 2, size=n), 1, 5).astype(float)
    decided = pw_ref != "tie"
    return {
        "binary": {"reference": ref.tolist(), "prediction": pred.tolist(),
                   "accuracy": skm.accuracy_score(ref, pred),
                   "balanced_accuracy": skm.balanced_accuracy_score(ref, pred),
                   "mcc": skm.matthews_corrcoef(ref, pred),
                   "recall_yes": skm.recall_score(ref, pred, pos_label="yes"),
                   "recall_no": skm.recall_score(ref, pred, pos_label="no")},
        "pairwise": {"reference": pw_ref.tolist(), "prediction": pw_pred.tolist(),
                     "accuracy": skm.accuracy_score(pw_ref, pw_pred),
                     "accuracy_without_ties": float(np.mean(pw_ref[decided] == pw_pred[decided])),
                     "balanced_accuracy": skm.balanced_accuracy_score(pw_ref, pw_pred),
                     "mcc": skm.matthews_corrcoef(pw_ref, pw_pred)},
        "score": {"reference": x.tolist(), "prediction": y.tolist(),
                  "pearson": float(stats.pearsonr(x, y)[0]),
                  "spearman": float(stats.spearmanr(x, y)[0]),
                  "kendall_tau_b": float(stats.kendalltau(x, y)[0]),
                  "mse": skm.mean_squared_error(x, y), "mae": skm.mean_absolute_error(x, y)},
    }


def coupling_set():
    """D3-Omni's dimension-coupling matrices (Eq. 4 and Figure 4) on a judge with a halo:
    with probability 0.5 it answers the first three dimensions with one latent decision, it
    says Yes to q4 always (a constant column: undetermined cells) and leaves about 5 % of its
    answers out. Each cell is scipy's Pearson r over the units answering both dimensions on
    both sides; the sides keep the units whose reference is Yes (No) on both."""
    rng = np.random.RandomState(20261202)
    n, qs = 150, ["q0", "q1", "q2", "q3", "q4"]
    ref = rng.rand(n, len(qs)) < 0.5
    pred = np.where(rng.rand(n, len(qs)) < 0.75, ref, ~ref)
    halo = rng.rand(n) < 0.5
    latent = rng.rand(n) < 0.5
    pred[halo, 0:3] = latent[halo, None]
    pred[:, 4] = True
    answered = rng.rand(n, len(qs)) >= 0.05

    def r(x, y):
        if len(x) < 2 or np.all(x == x[0]) or np.all(y == y[0]):
            return None
        return float(stats.pearsonr(x.astype(float), y.astype(float))[0])

    out = {k: [[None] * len(qs) for _ in qs] for k in ("judge", "reference", "yes_side", "no_side")}
    for a in range(len(qs)):
        for b in range(len(qs)):
            both = answered[:, a] & answered[:, b]
            yes = both & ref[:, a] & ref[:, b]
            no = both & ~ref[:, a] & ~ref[:, b]
            out["judge"][a][b] = r(pred[both, a], pred[both, b])
            out["reference"][a][b] = r(ref[both, a], ref[both, b])
            out["yes_side"][a][b] = r(pred[yes, a], pred[yes, b])
            out["no_side"][a][b] = r(pred[no, a], pred[no, b])
    units = []
    for i in range(n):
        units.append({"unit": "u%03d" % i,
                      "reference": {q: bool(ref[i, k]) for k, q in enumerate(qs)},
                      "prediction": {q: bool(pred[i, k]) for k, q in enumerate(qs) if answered[i, k]}})
    out["questions"] = qs
    out["units"] = units
    return out


def main():
    rng = np.random.RandomState(20240601)
    out = {"ratings": ratings_sets(rng), "multiselect": multiselect_set(rng), "judge": judge_sets(rng)}
    out["ratings"]["krippendorff2011"] = krippendorff_2011()
    out["judge"]["coupling"] = coupling_set()
    with open(os.path.join(HERE, "reference.json"), "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")


# --------------------------------------------------------------- benchmark

def bench(path):
    """Times the packaged references on a unit,rater,value CSV."""
    import pandas as pd
    t0 = time.perf_counter()
    d = pd.read_csv(path, dtype={"unit": str, "rater": str, "value": str})
    t_read = time.perf_counter() - t0
    data = list(zip(d["rater"], d["unit"], d["value"]))
    t0 = time.perf_counter()
    alpha = AnnotationTask(data=data).alpha()
    t_alpha = time.perf_counter() - t0
    wide = d.pivot(index="unit", columns="rater", values="value")
    t0 = time.perf_counter()
    complete = wide.dropna().to_numpy()
    table, _ = ir.aggregate_raters(complete)
    fk = ir.fleiss_kappa(table, method="fleiss")
    t_fleiss = time.perf_counter() - t0
    t0 = time.perf_counter()
    cols = list(wide.columns)
    kappas = []
    for a, b in itertools.combinations(cols, 2):
        both = wide[[a, b]].dropna()
        kappas.append(skm.cohen_kappa_score(both[a], both[b]))
    t_cohen = time.perf_counter() - t0
    print(json.dumps({"rows": len(d), "read_s": t_read, "nltk_alpha_s": t_alpha, "alpha": alpha,
                      "statsmodels_fleiss_s": t_fleiss, "fleiss_complete_units": fk,
                      "sklearn_cohen_matrix_s": t_cohen, "kappas": kappas}, indent=1))


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] == "--coupling":
        path = os.path.join(HERE, "reference.json")
        with open(path) as f:
            kept = json.load(f)
        kept["judge"]["coupling"] = coupling_set()
        with open(path, "w") as f:
            json.dump(kept, f, indent=1, sort_keys=True)
            f.write("\n")
    elif len(sys.argv) == 3 and sys.argv[1] == "--bench":
        bench(sys.argv[2])
    else:
        main()
