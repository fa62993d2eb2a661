package agreement

import (
	"fmt"
	"io"
	"strings"
)

// JudgeKind is the kind of labels a judge produces.
type JudgeKind int

// Judge kinds: Yes/No answers, pairwise A/B/tie preferences, numeric scores.
const (
	Binary JudgeKind = iota
	Pairwise
	Score
)

// ParseJudgeKind parses "binary", "pairwise" or "score".
func ParseJudgeKind(s string) (JudgeKind, error) {
	switch strings.ToLower(s) {
	case "binary":
		return Binary, nil
	case "pairwise":
		return Pairwise, nil
	case "score":
		return Score, nil
	}
	return 0, fmt.Errorf("%w: unknown kind %q (want binary, pairwise or score)", ErrInput, s)
}

// JudgeRecord is one labelled row: a unit, an optional question (for answer
// vectors), the value, optional players a and b (pairwise Elo) and an
// optional cluster and stratum for the bootstrap.
type JudgeRecord struct {
	Unit, Question, Value string
	A, B, Cluster         string
	Stratum               string
}

// JudgeData is a reference or prediction file, rows in file order. Data built from
// columns (NewJudgeColumns) has no Records.
type JudgeData struct {
	Records []JudgeRecord
	index   map[[2]string]int
	cols    *judgeCols
}

// ReadJudgeFile reads rows {"unit", "value"[, "question", "a", "b", cluster]}
// from JSON Lines or CSV. A (unit, question) pair may occur once.
func ReadJudgeFile(r io.Reader, format Format, clusterKey string) (*JudgeData, error) {
	return ReadJudgeFileStrata(r, format, clusterKey, "")
}

// ReadJudgeFileStrata is ReadJudgeFile with a stratum column or field too (strataKey, when
// not empty), for a bootstrap within strata.
func ReadJudgeFileStrata(r io.Reader, format Format, clusterKey, strataKey string) (*JudgeData, error) {
	data, err := readAll(r)
	if err != nil {
		return nil, err
	}
	want := []string{"unit", "value", clusterKey, "question", "a", "b", strataKey}
	required := 2
	if clusterKey != "" {
		required = 3
	}
	jd := &JudgeData{index: map[[2]string]int{}}
	err = scanRecords(data, format, want, required, func(v []string) error {
		if v[0] == "" {
			return fmt.Errorf("%w: missing unit", ErrInput)
		}
		rec := JudgeRecord{Unit: strings.Clone(v[0]), Value: strings.Clone(v[1]), Cluster: strings.Clone(v[2]),
			Question: strings.Clone(v[3]), A: strings.Clone(v[4]), B: strings.Clone(v[5]), Stratum: strings.Clone(v[6])}
		return jd.add(rec)
	})
	if err != nil {
		return nil, err
	}
	if len(jd.Records) == 0 {
		return nil, ErrNoData
	}
	jd.cols = columnsOf(jd.Records)
	return jd, nil
}

func (jd *JudgeData) add(rec JudgeRecord) error {
	k := [2]string{rec.Unit, rec.Question}
	if _, dup := jd.index[k]; dup {
		return fmt.Errorf("%w: unit %q question %q appears twice", ErrDuplicateRating, rec.Unit, rec.Question)
	}
	if jd.index == nil {
		jd.index = map[[2]string]int{}
	}
	jd.index[k] = len(jd.Records)
	jd.Records = append(jd.Records, rec)
	return nil
}

// NewJudgeData builds JudgeData from records (for callers that already hold them). The
// JudgeData keeps recs as its Records (no copy): the caller must not change them afterwards.
func NewJudgeData(recs []JudgeRecord) (*JudgeData, error) {
	jd := &JudgeData{index: make(map[[2]string]int, len(recs)), Records: recs}
	for i, r := range recs {
		k := [2]string{r.Unit, r.Question}
		if _, dup := jd.index[k]; dup {
			return nil, fmt.Errorf("%w: unit %q question %q appears twice", ErrDuplicateRating, r.Unit, r.Question)
		}
		jd.index[k] = i
	}
	jd.cols = columnsOf(recs)
	return jd, nil
}

// find returns the position of the record of a (unit, question) pair.
func (jd *JudgeData) find(unit, question string) (int, bool) {
	if jd.index != nil {
		p, ok := jd.index[[2]string{unit, question}]
		return p, ok
	}
	return jd.cols.lookup(unit, question)
}

// record returns the record at position i.
func (jd *JudgeData) record(i int) JudgeRecord {
	if jd.Records != nil {
		return jd.Records[i]
	}
	c := jd.cols
	return JudgeRecord{Unit: c.unitName(i), Question: c.questionName(i), Value: c.valueOf(i),
		A: c.name(c.A, i), B: c.name(c.B, i), Cluster: c.name(c.Cluster, i), Stratum: c.name(c.Stratum, i)}
}

// lookup returns the record for a (unit, question) pair.
func (jd *JudgeData) lookup(unit, question string) (JudgeRecord, bool) {
	i, ok := jd.find(unit, question)
	if !ok {
		return JudgeRecord{}, false
	}
	return jd.record(i), true
}

// Len is the number of records.
func (jd *JudgeData) Len() int { return jd.cols.len() }

// normalizeBinary maps common spellings of yes and no to "yes" and "no".
func normalizeBinary(s string) string {
	switch v := strings.ToLower(strings.TrimSpace(s)); v {
	case "yes", "y", "true", "1", "t":
		return "yes"
	case "no", "n", "false", "0", "f":
		return "no"
	default:
		return v
	}
}

// normalizePairwise maps spellings of A, B and tie to "a", "b" and "tie".
func normalizePairwise(s string) string {
	switch v := strings.ToLower(strings.TrimSpace(s)); v {
	case "a", "a>b", "left":
		return "a"
	case "b", "b>a", "right":
		return "b"
	case "tie", "draw", "equal", "=", "a=b":
		return "tie"
	default:
		return v
	}
}

// Lookup returns the record of a (unit, question) pair.
func (jd *JudgeData) Lookup(unit, question string) (JudgeRecord, bool) {
	return jd.lookup(unit, question)
}
