// Package agreement computes inter-annotator agreement and judge-versus-human
// metrics: percent agreement, Cohen's, Fleiss' and Conger's kappa, Scott's pi,
// Krippendorff's alpha at every level of measurement (and for multi-select
// values), Gwet's AC1/AC2, Brennan–Prediger, the six Shrout–Fleiss intraclass
// correlations, Kendall's W, Dawid–Skene, bootstrap confidence intervals and
// the metrics used to evaluate a model judge against reference labels.
//
// Every reliability metric reads one columnar Table, built once from
// (unit, rater, value) rows, with units, raters and values interned to dense
// int32 codes. The package is pure: it imports nothing from the server and does
// no I/O beyond the io.Reader and io.Writer values it is handed.
//
// Metrics that are undefined for the data (a single category, no unit with two
// ratings, a single rater) return an error wrapping one of the sentinel errors
// below; they never return NaN and never panic.
package agreement
