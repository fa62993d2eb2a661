package exports

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/arbiter-annotation/arbiter/tasks"
)

// cardBody writes the Markdown body of the dataset card.
func (x *exporter) cardBody(b *strings.Builder) {
	rel := x.job.Release
	title := rel.Project.Name
	if title == "" {
		title = rel.Schema.Title
	}
	fmt.Fprintf(b, "# %s\n\n", mdText(title))
	if rel.Project.Description != "" {
		fmt.Fprintf(b, "%s\n\n", strings.TrimSpace(rel.Project.Description))
	}
	fmt.Fprintf(b, "Release %s, schema version %d (content hash `%s`).\n\n",
		orDash(mdText(rel.Name)), rel.Schema.Version, rel.Schema.ContentHash()[:12])
	x.cardStructure(b)
	x.cardQuestions(b)
	x.cardProcess(b)
	x.cardAgreement(b)
	x.cardItems(b)
	x.cardCriteria(b)
	x.cardConventions(b)
	if c := strings.TrimSpace(rel.Card.Citation); c != "" {
		fmt.Fprintf(b, "## Citation\n\n```bibtex\n%s\n```\n", c)
	}
}

// cardStructure lists the splits and the files of each format.
func (x *exporter) cardStructure(b *strings.Builder) {
	b.WriteString("## Dataset structure\n\n| split | records |\n|---|---:|\n")
	for _, s := range x.tally.splits() {
		fmt.Fprintf(b, "| %s | %d |\n", s, x.tally.BySplit[s])
	}
	if len(x.tally.ByLanguage) > 0 {
		b.WriteString("\n| language | records |\n|---|---:|\n")
		for _, l := range x.tally.languages() {
			fmt.Fprintf(b, "| %s | %d |\n", ifStr(l == NoLanguage, "none (`und`)", "`"+l+"`"), x.tally.ByLanguage[l])
		}
	}
	b.WriteString("\n| format | records | files |\n|---|---:|---|\n")
	byFormat := map[string][]string{}
	for _, f := range x.files.entries() {
		byFormat[f.Format] = append(byFormat[f.Format], "`"+f.Path+"`")
	}
	for _, name := range x.job.Spec.Formats {
		fmt.Fprintf(b, "| %s | %d | %s |\n", name, x.tally.Formats[name].Records, strings.Join(byFormat[name], ", "))
	}
	b.WriteString("\n")
	leaves := false
	for _, name := range x.job.Spec.Formats {
		if ft := x.tally.Formats[name]; len(ft.LeftOut) > 0 {
			fmt.Fprintf(b, "- %s leaves out %d of the %d records: %s.\n", name, lossSum(ft.LeftOut), x.tally.Total, lossList(ft.LeftOut))
			leaves = true
		}
	}
	if leaves {
		b.WriteString("\n")
	}
	b.WriteString("`manifest.json` lists every file with its SHA-256 and size; `agreement.json` holds the agreement figures below in full.\n\n")
	if x.job.Spec.Media == MediaCopy {
		b.WriteString("Media files are copied into the release; media fields hold paths relative to the release root.\n\n")
	} else {
		b.WriteString("Media fields hold the paths or URLs of the media as referenced by the project; the files themselves are not part of the release.\n\n")
	}
}

// cardQuestions describes every question of the schema.
func (x *exporter) cardQuestions(b *strings.Builder) {
	s := &x.job.Release.Schema
	b.WriteString("## Questions\n\n| key | question | kind | scale |\n|---|---|---|---|\n")
	for _, q := range s.Questions {
		fmt.Fprintf(b, "| `%s` | %s | %s | %s |\n", q.Key, mdCell(q.Label), q.Kind, mdCell(tasks.KindOf(q).Scale()))
	}
	b.WriteString("\n")
}

// cardProcess reports how the ground truth was made, with the project's figures.
func (x *exporter) cardProcess(b *strings.Builder) {
	rel := x.job.Release
	fg := rel.Figures
	b.WriteString("## Annotation process\n\n")
	if rel.PolicySummary != "" {
		fmt.Fprintf(b, "%s\n\n", strings.TrimSpace(rel.PolicySummary))
	}
	fmt.Fprintf(b, "- People: annotators %d, reviewers %d, adjudicators %d (identified in this release only by pseudonyms)\n",
		fg.Annotators, fg.Reviewers, fg.Adjudicators)
	fmt.Fprintf(b, "- Independent labels per item (overlap): %d; labels submitted: %d\n", fg.Overlap, fg.Labels)
	fmt.Fprintf(b, "- Review verdicts: %s\n", countList(fg.Reviews))
	fmt.Fprintf(b, "- Adjudicated items: %d\n", fg.Adjudications)
	fmt.Fprintf(b, "- Skips (a person passed an item, which went to someone else): %d\n\n", x.tally.Skipped)
	b.WriteString("Provenance of the ground truth in this release:\n\n| provenance | records |\n|---|---:|\n")
	for _, k := range ProvenanceKinds {
		if n := x.tally.ByProvenance[k]; n > 0 {
			fmt.Fprintf(b, "| %s | %d |\n", k, n)
		}
	}
	b.WriteString("\n")
}

// countList renders {"approve": 3, ...} as "approve 3, ...", sorted.
func countList(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}

// cardAgreement tabulates agreement per question with intervals.
func (x *exporter) cardAgreement(b *strings.Builder) {
	b.WriteString("## Agreement\n\n")
	rows := x.agreementRows()
	if len(rows) == 0 {
		b.WriteString("No question has a level of measurement for agreement.\n\n")
		return
	}
	b.WriteString("| question | level | metric | value | 95% CI | units | raters | mean per-item agreement |\n")
	b.WriteString("|---|---|---|---:|---|---:|---:|---:|\n")
	for _, r := range rows {
		val, ci := "-", "-"
		if r.Value != nil && r.Value.Defined {
			val = fmt3(r.Value.Value)
		}
		if r.CI95 != nil && r.CI95.Replicates > 0 {
			ci = "[" + fmt3(r.CI95.Lower) + ", " + fmt3(r.CI95.Upper) + "]"
		}
		mean := "-"
		if r.MeanItemAgreement != nil {
			mean = fmt3(*r.MeanItemAgreement) + " (n=" + strconv.FormatInt(r.Items, 10) + ")"
		}
		fmt.Fprintf(b, "| `%s` | %s | %s | %s | %s | %s | %s | %s |\n", r.Question, r.Level, orDash(r.Metric),
			val, ci, intOrDash(r.Units), intOrDash(r.Raters), mean)
	}
	scope := x.job.Release.Figures.AgreementScope
	if scope == "" {
		scope = "the whole project"
	}
	fmt.Fprintf(b, "\nValue and interval are computed over %s (percentile bootstrap over items); the per-item agreement is the share of agreeing label pairs, averaged over the exported items with two or more labels.\n\n", scope)
}

// cardItems accounts for every item the release read, from the tally:
// read = filtered + released + left out, each left-out reason on its own
// row, then the drops by reason.
func (x *exporter) cardItems(b *strings.Builder) {
	t := x.tally
	b.WriteString("## Items accounted for\n\n")
	b.WriteString("Every item the release read (gold items and the calibration pool are never read) is counted once:\n\n")
	b.WriteString("| items | count |\n|---|---:|\n")
	fmt.Fprintf(b, "| read | %d |\n| left out by the metadata filter | %d |\n| released | %d |\n", t.Read, t.Filtered, t.Total)
	for _, l := range t.LeftOut {
		fmt.Fprintf(b, "| left out: %s | %d |\n", mdCell(l.Text()), l.Items)
	}
	b.WriteString("\n")
	if x.job.Spec.IncludeDropped {
		fmt.Fprintf(b, "Dropped and unresolved items are included, marked by `status` and `drop_reason`: %d dropped, %d unresolved.\n\n",
			t.ByStatus[string(StatusDropped)], t.ByStatus[string(StatusUnresolved)])
	} else {
		fmt.Fprintf(b, "This release holds only items with ground truth; items left out: %d.\n\n", t.Excluded)
	}
	if len(t.Dropped) == 0 {
		b.WriteString("No item within the release was dropped.\n\n")
		return
	}
	fmt.Fprintf(b, "Dropped items by reason (%d in all):\n\n| reason | items |\n|---|---:|\n", lossSum(t.Dropped))
	for _, d := range t.Dropped {
		fmt.Fprintf(b, "| %s | %d |\n", mdCell(orDash(d.Reason)), d.Items)
	}
	b.WriteString("\n")
}

// cardCriteria accounts for the criteria stage, as Omni-Reward reports its
// losses: criteria removed in QC and units dropped for no consensus, each
// as a share of the criteria written.
func (x *exporter) cardCriteria(b *strings.Builder) {
	c := x.tally.Criteria
	if c == nil {
		return
	}
	b.WriteString("## Criteria quality control\n\n")
	b.WriteString("Annotators wrote the evaluation criteria, which were reviewed before labeling; each valid criterion became one unit to label. Shares are of the criteria written.\n\n")
	b.WriteString("| criteria and units | count | share |\n|---|---:|---:|\n")
	row := func(label string, n int64) { fmt.Fprintf(b, "| %s | %d | %s |\n", label, n, percent(n, c.Written)) }
	row("criteria written", c.Written)
	for _, r := range c.Removed {
		row("removed in QC: "+mdCell(orDash(r.Reason)), r.Items)
	}
	row("awaiting review", c.Pending)
	row("became units", c.Valid)
	row("units read by the release", c.UnitsRead)
	for _, d := range c.UnitsDropped {
		row("units dropped: "+mdCell(orDash(d.Reason)), d.Items)
	}
	row("units with ground truth", c.UnitsDone)
	fmt.Fprintf(b, "\nRemoved in QC: %d of %d criteria (%s); units dropped: %d (%s).\n\n", c.RemovedTotal(), c.Written,
		percent(c.RemovedTotal(), c.Written), lossSum(c.UnitsDropped), percent(lossSum(c.UnitsDropped), c.Written))
}

// lossLabels name the loss kinds in the card.
var lossLabels = map[string]string{
	LossDropped: "dropped", LossUnresolved: "still in work", LossSpotCheck: "the blind spot check",
	LossNoGroundTruth: "no ground truth", LossUnanswered: "unanswered", LossTie: "tie",
	LossSeedNotAllYes: "a seed that is not all-Yes", LossCriteriaQC: "removed in criteria QC",
}

// Text describes the loss as the dataset card names it: its kind, then its
// reason in parentheses.
func (l Loss) Text() string {
	label, ok := lossLabels[l.Kind]
	if !ok {
		label = l.Kind
	}
	if l.Reason == "" {
		return label
	}
	return label + " (" + l.Reason + ")"
}

// lossList renders losses as "tie (...) 1, ...".
func lossList(ls []Loss) string {
	parts := make([]string, len(ls))
	for i, l := range ls {
		parts[i] = fmt.Sprintf("%s %d", l.Text(), l.Items)
	}
	return strings.Join(parts, ", ")
}

// percent is n as a share of d, "-" when d is 0.
func percent(n, d int64) string {
	if d == 0 {
		return "-"
	}
	return strconv.FormatFloat(100*float64(n)/float64(d), 'f', 1, 64) + "%"
}

// cardConventions explains N/A, polarity, candidate order and pseudonyms.
func (x *exporter) cardConventions(b *strings.Builder) {
	s := &x.job.Release.Schema
	b.WriteString("## Conventions\n\n")
	b.WriteString("- `answers` holds the ground truth as answered; `normalized` holds it as analysed.\n")
	var defects, naYes, naNo, naMissing []string
	for _, q := range s.Questions {
		if q.Kind != tasks.KindBinary {
			continue
		}
		if q.YesMeans == tasks.YesMeansDefect {
			defects = append(defects, "`"+q.Key+"`")
		}
		if q.AllowNA {
			switch q.NAMeans {
			case tasks.NASatisfied:
				naYes = append(naYes, "`"+q.Key+"`")
			case tasks.NANotSatisfied:
				naNo = append(naNo, "`"+q.Key+"`")
			default:
				naMissing = append(naMissing, "`"+q.Key+"`")
			}
		}
	}
	if hasKind(s, tasks.KindBinary) {
		b.WriteString("- Binary questions are normalised to \"requirement satisfied\": `true` (Yes), `false` (No), `null` (unknown).\n")
	}
	if len(defects) > 0 {
		fmt.Fprintf(b, "- Polarity: %s ask about a defect, so an answered \"yes\" (defect present) is normalised to `false`.\n", strings.Join(defects, ", "))
	}
	if len(naYes) > 0 {
		fmt.Fprintf(b, "- N/A on %s counts as satisfied (`true`).\n", strings.Join(naYes, ", "))
	}
	if len(naNo) > 0 {
		fmt.Fprintf(b, "- N/A on %s counts as not satisfied (`false`).\n", strings.Join(naNo, ", "))
	}
	if len(naMissing) > 0 {
		fmt.Fprintf(b, "- N/A on %s is missing (`null`) and left out of analysis.\n", strings.Join(naMissing, ", "))
	}
	if hasNALikert(s) {
		b.WriteString("- A Likert N/A is kept as \"na\" in `answers` and is `null` in `normalized`.\n")
	}
	if slices.ContainsFunc(s.Questions, func(q tasks.Question) bool { return tasks.KindOf(q).ComparesCandidates() }) {
		b.WriteString("- Pairwise and ranking answers refer to candidates in their stored (canonical) order: \"A\" is the first candidate of the item as imported, whatever order an annotator saw.\n")
	}
	b.WriteString("- Annotator, reviewer and adjudicator ids are pseudonyms (`anon-` + HMAC-SHA256 of the user id with a per-project secret), stable within the project's releases.\n")
	for _, name := range x.job.Spec.Formats {
		if note := x.formatNote(name); note != "" {
			fmt.Fprintf(b, "- %s: %s\n", name, note)
		}
	}
	b.WriteString("\n")
}

// formatNote explains how a benchmark format maps the ground truth.
func (x *exporter) formatNote(name string) string {
	switch name {
	case "d3omni":
		return "`labels` holds \"Yes\" where the requirement is satisfied (after polarity and N/A), in the dimension order of the rubric file; `total_score` counts the Yes; `meta` keeps the seed/negative relation."
	case "omnireward":
		ties := "tie records are included (the w/ Ties setting)"
		if !x.job.Spec.Ties {
			ties = "tie records are left out (the w/o Ties setting)"
		}
		return "`criteria_preference` names the preferred response in stored order; " + ties + "."
	case "judgeanything":
		return "`choice` is 0 when the first response is better, 1 for a tie, 2 when the second is better; `score` is 1-5; the overall judgment is `overall_score`."
	case "robojudge":
		return "the SFT targets take the annotators' evidence as the reasoning; axis rows carry only the inputs the axis is judged on (Physical Adherence: the video, without the instruction)."
	case "storybench":
		return "each criterion is {\"score\", \"rationale\"} under the rubric's key; the integrated track is written as `joint`."
	}
	return ""
}

func hasKind(s *tasks.Schema, k tasks.Kind) bool {
	return slices.ContainsFunc(s.Questions, func(q tasks.Question) bool { return q.Kind == k })
}

func hasNALikert(s *tasks.Schema) bool {
	return slices.ContainsFunc(s.Questions, func(q tasks.Question) bool { return q.Kind == tasks.KindLikert && q.AllowNA })
}

func fmt3(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func intOrDash(n int) string {
	if n == 0 {
		return "-"
	}
	return strconv.Itoa(n)
}
