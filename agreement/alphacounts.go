package agreement

import (
	"bytes"
	"fmt"
	"io"
)

// SummarizeRatings reads ratings and summarizes them: ReadRatings, then
// Summarize with the file's clusters and strata. A report of alpha alone
// (ReportOptions.Metrics naming only krippendorff_alpha, no bootstrap, no
// Dawid–Skene, no multi-select) of a plain CSV file that r can seek back in
// is computed from the coincidence counts as the file streams in
// (readAlphaReport), without the table; the report is the same.
func SummarizeRatings(r io.Reader, ro ReadOptions, opts ReportOptions) (*Report, error) {
	if rs, ok := r.(io.ReadSeeker); ok && alphaOnly(ro, opts) {
		if start, err := rs.Seek(0, io.SeekCurrent); err == nil {
			rep, ok, err := readAlphaReport(rs, ro.Level, inputSize(r))
			if ok || err != nil {
				return rep, err
			}
			if _, err := rs.Seek(start, io.SeekStart); err != nil {
				return nil, err
			}
		}
	}
	ds, err := ReadRatings(r, ro)
	if err != nil {
		return nil, err
	}
	opts.Clusters, opts.Strata = ds.Clusters, ds.Strata
	return Summarize(ds.Table, opts)
}

// alphaOnly reports whether readAlphaReport can give the report.
func alphaOnly(ro ReadOptions, opts ReportOptions) bool {
	m := opts.Metrics
	return streamable(ro) && len(m) == 1 && m["krippendorff_alpha"] &&
		opts.Bootstrap == 0 && !opts.DawidSkene && opts.SetSeparator == ""
}

// alphaCounts is what Krippendorff's alpha needs from a ratings file, and
// nothing more: as the rows of a unit stream past, the counts of its
// values go to a memo (agreeing pairs, categories and coincidences per
// unit size) and are forgotten; neither the ratings nor the unit names are
// kept as a table. Value codes are provisional (order of appearance, at
// most fewCategories of them) until report sorts them.
type alphaCounts struct {
	units        *unitTable // a provisional code per run of rows of a unit
	unit         string     // the current run's unit
	raters, vals interner
	m            memo
	cnt          [fewCategories]int64 // the current run's value counts
	size         int                  // and its number of ratings
	seen         []int32              // seen[r]: the last run rater r rated in
	nRatings     int
}

// readAlphaReport returns the report of alpha alone of a plain CSV file
// (see SummarizeRatings); ok is false, with r partly read, when the file
// needs the table: another header, quotes, a line the fast path does not take,
// more than fewCategories values, a unit whose rows are not together, a
// duplicate rating, no ratings, or values that do not suit the level. Then
// the general path reads the file again and gives the report or the error
// it would give anyway.
func readAlphaReport(r io.Reader, level Level, size int) (rep *Report, ok bool, err error) {
	s := newCSVStream(r, nil, plainChunk)
	head, nCols, err := s.header()
	if err != nil || nCols == 0 {
		return nil, false, err
	}
	// room for a unit per two rows, as NewBuilder
	c := &alphaCounts{units: newUnitTable(estimateRowsOf(head, max(size, len(head)))/2 + 16)}
	var rows plainRows
	for {
		region := s.region()
		if bytes.IndexByte(region, '"') >= 0 {
			return nil, false, nil
		}
		for pos := 0; pos < len(region); {
			n, next, _, split := splitPlain(region, pos, &rows)
			if !split || !c.add(region, rows[:n]) {
				return nil, false, nil
			}
			pos = next
		}
		s.start += len(region)
		if s.eof {
			rep, ok = c.report(level)
			return rep, ok, nil
		}
		if err := s.fill(); err != nil {
			return nil, false, err
		}
	}
}

// add counts rows of data; it returns false for a value beyond
// fewCategories or a duplicate rating.
func (c *alphaCounts) add(data []byte, rows []plainRow) bool {
	for _, row := range rows {
		if u := data[row.start:row.uEnd]; string(u) != c.unit {
			c.endRun()
			c.unit = c.units.name(c.units.newRun(view(u)))
		}
		rb, vb := data[row.uEnd+1:row.rEnd], data[row.rEnd+1:row.vEnd]
		r, v := c.raters.short.find(rb)-1, c.vals.short.find(vb)-1 // short names by direct lookup
		if r < 0 {
			r = c.raters.code(view(rb))
		}
		if v < 0 {
			v = c.vals.code(view(vb))
		}
		if v >= fewCategories {
			return false
		}
		for int(r) >= len(c.seen) {
			c.seen = append(c.seen, -1)
		}
		if c.seen[r] == c.units.last {
			return false
		}
		c.seen[r] = c.units.last
		c.cnt[v]++
		c.size++
	}
	c.nRatings += len(rows)
	return true
}

// endRun adds the current run's unit to the counts.
func (c *alphaCounts) endRun() {
	if c.size > 0 {
		nv := len(c.vals.names)
		c.m.addUnit(c.size, c.cnt[:nv], fewCategories)
		clear(c.cnt[:nv])
		c.size = 0
	}
}

// report returns the report of alpha alone; ok is false when the counts
// cannot give it (see readAlphaReport).
func (c *alphaCounts) report(level Level) (rep *Report, ok bool) {
	c.endRun()
	if c.nRatings == 0 || len(c.units.repeats()) > 0 {
		return nil, false
	}
	values, numbers, remap, err := orderValues(c.vals.names, level)
	if err != nil {
		return nil, false
	}
	st := c.m.recode(remap, fewCategories)
	r := &Report{
		Level: level.String(), NRatings: c.nRatings, NUnits: len(c.units.ends),
		NRaters: len(c.raters.names), NCategories: len(values), Notes: []string{},
		KrippendorffAlpha: new(Estimate),
	}
	for size := 2; size < len(st.unitsBySize); size++ {
		r.NPairableUnits += int(st.unitsBySize[size])
	}
	var alpha float64
	if len(c.raters.names) < 2 {
		err = fmt.Errorf("%w: a single rater (%q)", ErrTooFewRaters, c.raters.names[0])
	} else {
		// the coincidences are dense (q ≤ fewCategories): no ratings needed
		alpha, err = alphaOf(st, numbers, level, nil)
	}
	r.set("krippendorff_alpha", r.KrippendorffAlpha, alpha, err)
	return r, true
}
