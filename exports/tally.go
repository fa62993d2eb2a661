package exports

import (
	"cmp"
	"maps"
	"slices"
	"strings"
)

// Tally is the one count of a release: what became of every item the caller
// streamed. The dataset card, manifest.json ("records") and the caller's
// release summary all read it, so their numbers are the same numbers. Every
// item read is counted once, in Filtered, Excluded or Total:
//
//	Read = Filtered + Excluded + Total
//	Excluded = the sum of LeftOut
//
// Dropped, Unresolved, Skipped and Criteria describe the items within the
// filter whether the release holds them or not; Formats says how many of
// the exported records each format holds and why it leaves the others out.
// A new reason to leave an item out is a new Loss kind, nothing more.
type Tally struct {
	// Read is the number of items the caller streamed (gold items and the
	// calibration pool are never streamed).
	Read int64 `json:"read"`
	// Total is the number of records exported.
	Total int64 `json:"total"`
	// BySplit, ByStatus and ByProvenance break Total down.
	BySplit      map[string]int64 `json:"by_split"`
	ByStatus     map[string]int64 `json:"by_status"`
	ByProvenance map[string]int64 `json:"by_provenance"`
	// ByLanguage counts records per item language (NoLanguage for items
	// without one); it is left out when no record has a language.
	ByLanguage map[string]int64 `json:"by_language,omitempty"`
	// Excluded is the number of items within the filter left out of the
	// release; LeftOut says why, by kind and reason.
	Excluded int64  `json:"excluded"`
	LeftOut  []Loss `json:"left_out"`
	// Filtered counts the items the metadata filter left out.
	Filtered int64 `json:"filtered"`
	// Dropped counts the dropped items within the filter by drop reason,
	// whether the release holds them (include_dropped) or left them out.
	Dropped []Loss `json:"dropped"`
	// Unresolved counts the items within the filter still in work.
	Unresolved int64 `json:"unresolved"`
	// Skipped counts the times a person skipped one of the items within the
	// filter (each skip handed the item to someone else).
	Skipped int64 `json:"skipped"`
	// Criteria is what the criteria stage made, when the project has one.
	Criteria *CriteriaQC `json:"criteria,omitempty"`
	// Formats holds, per format of the release, the records it holds and
	// the exported records it leaves out.
	Formats map[string]FormatTally `json:"formats"`
}

// Loss is a number of items (or criteria) lost for one reason.
type Loss struct {
	// Kind is one of the Loss kinds.
	Kind string `json:"kind"`
	// Reason details the kind: the drop reason, the questions a spot check
	// disagreed on, a QC verdict; empty when the kind says it all.
	Reason string `json:"reason,omitempty"`
	// Items is how many.
	Items int64 `json:"items"`
}

// Loss kinds.
const (
	// LossDropped: the workflow dropped the item; Reason is its drop reason.
	LossDropped = "dropped"
	// LossUnresolved: the item is still in work (criteria, label, review,
	// adjudication).
	LossUnresolved = "unresolved"
	// LossSpotCheck: a blind spot check disagreed with the item's imported
	// ground truth and the lead has not resolved the flag; Reason names the
	// questions.
	LossSpotCheck = "spot_check"
	// LossNoGroundTruth: a benchmark format holds only items with ground
	// truth (the release includes dropped and unresolved items).
	LossNoGroundTruth = "no_ground_truth"
	// LossUnanswered: the ground truth does not answer the question the
	// format releases.
	LossUnanswered = "unanswered"
	// LossTie: a tie, left out of the w/o Ties setting (omnireward
	// ties=false).
	LossTie = "tie"
	// LossSeedNotAllYes: a D3-Omni seed whose ground truth is not Yes on
	// every dimension; the benchmark admits only all-Yes seeds.
	LossSeedNotAllYes = "seed_not_all_yes"
	// LossCriteriaQC: a criterion removed by its review; Reason is the
	// verdict (too_vague, too_specific, duplicate).
	LossCriteriaQC = "criteria_qc"
)

// CriteriaQC is what a criteria stage (Omni-Reward's criteria annotation)
// made of the criteria its authors wrote, and what became of the units
// made from them. The caller gives the criteria counts; Export counts the
// units it reads.
type CriteriaQC struct {
	// Written counts the criteria written, Valid those QC kept (each became
	// a unit), Pending those not yet reviewed.
	Written int64 `json:"written"`
	Valid   int64 `json:"valid"`
	Pending int64 `json:"pending"`
	// Removed counts the criteria QC removed, by verdict (kind
	// LossCriteriaQC).
	Removed []Loss `json:"removed"`
	// UnitsRead counts the units (records with a Parent) within the filter,
	// UnitsDone those with ground truth, UnitsDropped the dropped ones by
	// drop reason; Export fills them.
	UnitsRead    int64  `json:"units_read"`
	UnitsDone    int64  `json:"units_done"`
	UnitsDropped []Loss `json:"units_dropped"`
}

// RemovedTotal is the number of criteria QC removed.
func (c *CriteriaQC) RemovedTotal() int64 { return lossSum(c.Removed) }

// FormatTally is what one format holds of the exported records.
type FormatTally struct {
	// Records counts the exported records the format holds (items, however
	// many rows or files each becomes).
	Records int64 `json:"records"`
	// LeftOut counts the exported records the format leaves out, by reason.
	LeftOut []Loss `json:"left_out"`
}

// NoLanguage counts the records of items without a language ("und", the
// BCP 47 tag for an undetermined language).
const NoLanguage = "und"

// lossKey identifies a loss while counting.
type lossKey struct{ kind, reason string }

// losses counts items by kind and reason.
type losses map[lossKey]int64

func (l losses) add(kind, reason string) { l[lossKey{kind, reason}]++ }

// list returns the counts sorted by kind, then reason; never nil, so the
// manifest writes [].
func (l losses) list() []Loss {
	out := make([]Loss, 0, len(l))
	for k, n := range l {
		out = append(out, Loss{Kind: k.kind, Reason: k.reason, Items: n})
	}
	slices.SortFunc(out, func(a, b Loss) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Reason, b.Reason))
	})
	return out
}

func lossSum(ls []Loss) int64 {
	var n int64
	for _, l := range ls {
		n += l.Items
	}
	return n
}

// counter builds the Tally of one Export.
type counter struct {
	t            Tally
	leftOut      losses
	dropped      losses
	unitsDropped losses
	formats      map[string]*formatCounter
	// order lists the format names as the spec gives them.
	order []string
}

// formatCounter builds one format's FormatTally.
type formatCounter struct {
	records int64
	leftOut losses
}

func newCounter(formats []string, criteria *CriteriaQC) *counter {
	c := &counter{leftOut: losses{}, dropped: losses{}, unitsDropped: losses{}, formats: map[string]*formatCounter{}, order: formats}
	c.t.BySplit, c.t.ByStatus, c.t.ByProvenance, c.t.ByLanguage = map[string]int64{}, map[string]int64{}, map[string]int64{}, map[string]int64{}
	if criteria != nil {
		cq := *criteria
		cq.Removed = slices.Clone(cq.Removed)
		c.t.Criteria = &cq
	}
	for _, f := range formats {
		c.formats[f] = &formatCounter{leftOut: losses{}}
	}
	return c
}

// inScope counts an item within the filter: its drop, its skips, and its
// unit's fate.
func (c *counter) inScope(rec *Record) {
	c.t.Skipped += int64(len(rec.Skips))
	switch rec.Status {
	case StatusDropped:
		c.dropped.add(LossDropped, rec.DropReason)
	case StatusUnresolved:
		c.t.Unresolved++
	}
	if rec.Parent == "" || c.t.Criteria == nil {
		return
	}
	c.t.Criteria.UnitsRead++
	switch rec.Status {
	case StatusDone:
		c.t.Criteria.UnitsDone++
	case StatusDropped:
		c.unitsDropped.add(LossDropped, rec.DropReason)
	}
}

// exclude counts an item within the filter left out of the release.
func (c *counter) exclude(kind, reason string) {
	c.t.Excluded++
	c.leftOut.add(kind, reason)
}

// kept counts an exported entry, and what each format makes of it.
func (c *counter) kept(e *entry, writers []writer) {
	t := &c.t
	t.Total++
	t.BySplit[e.Split]++
	t.ByStatus[string(e.Status)]++
	lang := e.Language
	if lang == "" {
		lang = NoLanguage
	}
	t.ByLanguage[lang]++
	if e.Provenance.Kind != "" {
		t.ByProvenance[e.Provenance.Kind]++
	}
	for i, w := range writers {
		f := c.formats[c.order[i]]
		if kind, reason := w.leaves(e); kind != "" {
			f.leftOut.add(kind, reason)
		} else {
			f.records++
		}
	}
}

// tally returns the finished Tally.
func (c *counter) tally() Tally {
	t := c.t
	t.LeftOut, t.Dropped = c.leftOut.list(), c.dropped.list()
	if t.Criteria != nil {
		t.Criteria.UnitsDropped = c.unitsDropped.list()
		if t.Criteria.Removed == nil {
			t.Criteria.Removed = []Loss{}
		}
	}
	t.Formats = make(map[string]FormatTally, len(c.formats))
	for name, f := range c.formats {
		t.Formats[name] = FormatTally{Records: f.records, LeftOut: f.leftOut.list()}
	}
	t.dropNoLanguages()
	return t
}

// dropNoLanguages forgets the language counts when no record has a
// language: a project that never names languages releases as before.
func (t *Tally) dropNoLanguages() {
	if len(t.ByLanguage) == 0 || (len(t.ByLanguage) == 1 && t.ByLanguage[NoLanguage] > 0) {
		t.ByLanguage = nil
	}
}

// baseLanguages returns the language subtags of the counted tags (zh for
// zh-Hans), sorted, as the card's front matter lists them.
func (t Tally) baseLanguages() []string {
	var out []string
	for tag := range t.ByLanguage {
		if tag != NoLanguage {
			out = append(out, strings.SplitN(tag, "-", 2)[0])
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// languages returns the counted language tags, NoLanguage last.
func (t Tally) languages() []string {
	tags := slices.Sorted(maps.Keys(t.ByLanguage))
	if i := slices.Index(tags, NoLanguage); i >= 0 {
		tags = append(slices.Delete(tags, i, i+1), NoLanguage)
	}
	return tags
}

// splits returns the split names in order: train, validation, test first
// (the Hugging Face order), then the rest by name.
func (t Tally) splits() []string {
	rank := map[string]int{"train": 0, "validation": 1, "test": 2}
	names := slices.Collect(maps.Keys(t.BySplit))
	slices.SortFunc(names, func(a, b string) int {
		ra, oka := rank[a]
		rb, okb := rank[b]
		switch {
		case oka && okb:
			return ra - rb
		case oka:
			return -1
		case okb:
			return 1
		}
		return strings.Compare(a, b)
	})
	return names
}
