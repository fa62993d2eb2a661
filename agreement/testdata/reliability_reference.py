#!/usr/bin/python3
"""Reference values for the reliability model (agreement.EstimateReliability):
crowd-kit's DawidSkene (Toloka) on simulated raters with known confusion
matrices.

    CROWDKIT_SRC=/tmp/crowd-kit /usr/bin/python3 agreement/testdata/reliability_reference.py

writes the rel_*.csv data sets (unit,rater,value; gold units in
rel_*_gold.csv and every unit's simulated true value in rel_*_truth.csv, as
unit,value) and reliability_reference.json beside this
file. Needs Debian's python3-numpy, python3-pandas and python3-attr, and a
checkout of https://github.com/Toloka/crowd-kit named in CROWDKIT_SRC (only
crowdkit/aggregation/{utils,base,classification/majority_vote,
classification/dawid_skene}.py are loaded, so the package's other
dependencies are not needed).

The data are drawn here with numpy from confusion matrices chosen here; the
Go test reads only the files, fits its own model and compares every prior,
confusion cell, posterior and rater accuracy to the values below.
"""
import csv
import importlib.util
import json
import os
import sys
import types

import numpy as np
import pandas as pd

HERE = os.path.dirname(os.path.abspath(__file__))
N_ITER, TOL = 500, 1e-9  # the Go defaults (ReliabilityOptions)


def load_crowdkit(src):
    """Imports DawidSkene from a crowd-kit checkout without its package
    __init__ files (which pull in every aggregator's dependencies)."""
    for name, sub in (("crowdkit", "crowdkit"),
                      ("crowdkit.aggregation", "crowdkit/aggregation"),
                      ("crowdkit.aggregation.classification", "crowdkit/aggregation/classification")):
        mod = types.ModuleType(name)
        mod.__path__ = [os.path.join(src, sub)]
        sys.modules[name] = mod
    for name, path in (("crowdkit.aggregation.utils", "crowdkit/aggregation/utils.py"),
                       ("crowdkit.aggregation.base", "crowdkit/aggregation/base/__init__.py"),
                       ("crowdkit.aggregation.classification.majority_vote",
                        "crowdkit/aggregation/classification/majority_vote.py"),
                       ("crowdkit.aggregation.classification.dawid_skene",
                        "crowdkit/aggregation/classification/dawid_skene.py")):
        spec = importlib.util.spec_from_file_location(name, os.path.join(src, path))
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        if name == "crowdkit.aggregation.utils":
            # utils imports the base package, which imports utils back
            sys.modules["crowdkit.aggregation"].base = None
        spec.loader.exec_module(mod)
        parent, _, leaf = name.rpartition(".")
        setattr(sys.modules[parent], leaf, mod)
    return sys.modules["crowdkit.aggregation.classification.dawid_skene"].DawidSkene


def confusion(rng, classes, accuracy, bias=None):
    """A row-stochastic matrix [true][given] with the given accuracy on the
    diagonal and the rest spread at random (or onto class `bias`)."""
    m = np.zeros((len(classes), len(classes)))
    for k in range(len(classes)):
        rest = rng.dirichlet(np.ones(len(classes) - 1))
        if bias is not None and bias != k:
            rest = np.zeros(len(classes) - 1)
            rest[bias if bias < k else bias - 1] = 1
        m[k, k] = accuracy
        m[k, [l for l in range(len(classes)) if l != k]] = (1 - accuracy) * rest
    return m


def simulate(rng, name, classes, prior, accuracies, units, per_unit, gold_share, biased=()):
    mats = [confusion(rng, classes, a, bias=(1 if r in biased else None)) for r, a in enumerate(accuracies)]
    rows, gold, truths = [], {}, []
    for u in range(units):
        truth = rng.choice(len(classes), p=prior)
        unit = "u%04d" % u
        truths.append((unit, classes[truth]))
        for r in rng.choice(len(accuracies), size=per_unit, replace=False):
            given = rng.choice(len(classes), p=mats[r][truth])
            rows.append((unit, "r%d" % r, classes[given]))
        if rng.random() < gold_share:
            gold[unit] = classes[truth]
    with open(os.path.join(HERE, "rel_%s.csv" % name), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["unit", "rater", "value"])
        w.writerows(rows)
    with open(os.path.join(HERE, "rel_%s_truth.csv" % name), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["unit", "value"])
        w.writerows(truths)
    if gold:
        with open(os.path.join(HERE, "rel_%s_gold.csv" % name), "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["unit", "value"])
            w.writerows(sorted(gold.items()))
    return pd.DataFrame(rows, columns=["task", "worker", "label"]), gold


def fit(DawidSkene, data, gold):
    ds = DawidSkene(n_iter=N_ITER, tol=TOL)
    true_labels = pd.Series(gold, dtype=object) if gold else None
    probas = ds.fit_predict_proba(data, true_labels)
    classes = [str(c) for c in probas.columns]
    workers = sorted(data.worker.unique())
    confusion = {}
    for w in workers:
        e = ds.errors_.loc[w]  # index: given labels, columns: true labels
        confusion[w] = [[float(e.loc[l, k]) if l in e.index else 0.0 for l in classes] for k in classes]
    accuracy = {}
    for w, group in data.groupby("worker"):
        correct = sum(float(probas.loc[t, l]) for t, l in zip(group.task, group.label))
        accuracy[w] = {"ratings": int(len(group)), "accuracy": correct / len(group)}
    return {
        "classes": classes,
        "iterations": len(ds.loss_history_),
        "prior": [float(ds.priors_[k]) for k in probas.columns],
        "confusion": confusion,
        "posterior": {t: [float(x) for x in probas.loc[t]] for t in probas.index},
        "accuracy": accuracy,
    }


def main():
    src = os.environ.get("CROWDKIT_SRC")
    if not src:
        sys.exit("CROWDKIT_SRC must name a checkout of Toloka/crowd-kit")
    DawidSkene = load_crowdkit(src)
    rng = np.random.default_rng(20261207)
    sets = {
        # six annotators between 0.80 and 0.92, three labels an item, a binary question
        "binary": dict(classes=["no", "yes"], prior=[0.4, 0.6],
                       accuracies=[0.80, 0.83, 0.85, 0.88, 0.90, 0.92], units=400, per_unit=3, gold_share=0),
        # the same with two spammers among eight, and 5 % gold
        "spammers": dict(classes=["no", "yes"], prior=[0.5, 0.5],
                         accuracies=[0.82, 0.85, 0.87, 0.90, 0.92, 0.88, 0.5, 0.5], units=300, per_unit=3,
                         gold_share=0.05),
        # four classes, one rater biased towards one class, unbalanced prior
        "fourclass": dict(classes=["a", "b", "c", "d"], prior=[0.1, 0.2, 0.3, 0.4],
                          accuracies=[0.7, 0.75, 0.8, 0.85, 0.6], units=250, per_unit=3, gold_share=0.1,
                          biased=(4,)),
    }
    out = {"n_iter": N_ITER, "tol": TOL, "sets": {}}
    for name, spec in sets.items():
        data, gold = simulate(rng, name, **spec)
        ref = fit(DawidSkene, data, gold)
        ref["file"] = "rel_%s.csv" % name
        ref["gold"] = "rel_%s_gold.csv" % name if gold else ""
        out["sets"][name] = ref
        print(name, "iterations", ref["iterations"], "prior", ref["prior"])
    with open(os.path.join(HERE, "reliability_reference.json"), "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
