#!/usr/bin/python3
"""Krippendorff's alpha of a unit,rater,value CSV with the `krippendorff`
package (numpy), the reference for `arbiter agreement --metrics alpha` in
docs/performance.md.

    KRIPPENDORFF_SRC=/tmp/krippendorff /usr/bin/python3 \\
        agreement/testdata/krippendorff_alpha.py FILE.csv [LEVEL]

prints alpha at LEVEL (nominal, ordinal, interval or ratio; default
nominal). The file is read with the csv module, units and raters are
numbered with dicts, and the raters x units reliability matrix (NaN where a
rating is missing) goes to krippendorff.alpha. Values are numbers, or, when
one is not, the ranks of the labels in sorted order (as `arbiter agreement`
orders them).

The package is pure Python over numpy (`apt-get install python3-numpy`). Where
PyPI is reachable, `pip install krippendorff` is enough; otherwise check out
its source and name the checkout in KRIPPENDORFF_SRC:

    git clone https://github.com/pln-fing-udelar/fast-krippendorff /tmp/krippendorff
"""
import csv
import os
import sys

if os.environ.get("KRIPPENDORFF_SRC"):
    sys.path.insert(0, os.environ["KRIPPENDORFF_SRC"])

import krippendorff  # noqa: E402
import numpy as np  # noqa: E402


def read(path):
    """Returns the raters x units matrix of a unit,rater,value CSV."""
    units, raters = {}, {}
    unit_idx, rater_idx, values = [], [], []
    with open(path, newline="") as f:
        rows = csv.reader(f)
        header = [h.strip().lower() for h in next(rows)]
        iu, ir, iv = header.index("unit"), header.index("rater"), header.index("value")
        for row in rows:
            if not row or row[iv] == "":
                continue  # a blank line or a missing rating
            unit_idx.append(units.setdefault(row[iu], len(units)))
            rater_idx.append(raters.setdefault(row[ir], len(raters)))
            values.append(row[iv])
    try:
        numbers = [float(v) for v in values]
    except ValueError:
        rank = {label: i for i, label in enumerate(sorted(set(values)))}
        numbers = [rank[v] for v in values]
    data = np.full((len(raters), len(units)), np.nan)
    data[rater_idx, unit_idx] = numbers
    return data


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    level = sys.argv[2] if len(sys.argv) == 3 else "nominal"
    alpha = krippendorff.alpha(reliability_data=read(sys.argv[1]), level_of_measurement=level)
    print(repr(float(alpha)))


if __name__ == "__main__":
    main()
