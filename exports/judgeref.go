package exports

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/arbiter-annotation/arbiter/agreement"
)

// ReleaseJudgeOptions select what a release gives as a judge reference.
type ReleaseJudgeOptions struct {
	Kind agreement.JudgeKind
	// Questions keeps only these question keys (all of the kind when empty).
	Questions []string
	// ClusterKey and StrataKey name item metadata keys for the bootstrap.
	ClusterKey, StrataKey string
}

// ReadReleaseJudgeReference reads a release directory (manifest.json and the jsonl format's
// records) as judge reference records: each record's normalized answers of the kind, as the
// judge leaderboard evaluates them — a binary question's satisfied or not as yes/no after
// polarity and N/A mapping, a score's number, a pairwise answer A, B or tie. The unit is the
// record's external id; pairwise records name the players from meta model_a and model_b.
func ReadReleaseJudgeReference(dir fs.FS, o ReleaseJudgeOptions) (*agreement.JudgeData, error) {
	raw, err := fs.ReadFile(dir, "manifest.json")
	if err != nil {
		return nil, fmt.Errorf("not a release directory: %w", err)
	}
	var m struct {
		Files []FileEntry `json:"files"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("manifest.json: %w", err)
	}
	var recs []agreement.JudgeRecord
	found := false
	for _, f := range m.Files {
		if f.Format != "jsonl" || path.Ext(f.Path) != ".jsonl" {
			continue
		}
		found = true
		if recs, err = readJudgeRecords(dir, f.Path, o, recs); err != nil {
			return nil, err
		}
	}
	if !found {
		return nil, fmt.Errorf("the release has no jsonl records; export it with the jsonl format")
	}
	return agreement.NewJudgeData(recs)
}

func readJudgeRecords(dir fs.FS, name string, o ReleaseJudgeOptions, recs []agreement.JudgeRecord) ([]agreement.JudgeRecord, error) {
	fh, err := dir.Open(name)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for line := 1; sc.Scan(); line++ {
		var r struct {
			ExternalID string                     `json:"external_id"`
			Meta       map[string]json.RawMessage `json:"meta"`
			Normalized map[string]json.RawMessage `json:"normalized"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		keys := make([]string, 0, len(r.Normalized))
		for k := range r.Normalized {
			if len(o.Questions) == 0 || slices.Contains(o.Questions, k) {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		meta := func(key string) string {
			v, _ := metaString(r.Meta, key)
			return v
		}
		for _, k := range keys {
			v, ok := judgeValue(o.Kind, r.Normalized[k])
			if !ok {
				continue
			}
			recs = append(recs, agreement.JudgeRecord{Unit: r.ExternalID, Question: k, Value: v,
				Cluster: meta(o.ClusterKey), Stratum: meta(o.StrataKey), A: meta("model_a"), B: meta("model_b")})
		}
	}
	return recs, sc.Err()
}

// judgeValue is a normalized answer as a judge record value of the kind;
// null (an N/A analysed as missing) gives none.
func judgeValue(kind agreement.JudgeKind, raw json.RawMessage) (string, bool) {
	if isNull(raw) {
		return "", false // note: json.Unmarshal leaves a bool or number unset on null, which read as "no" or 0
	}
	switch kind {
	case agreement.Binary:
		var b bool
		if json.Unmarshal(raw, &b) == nil {
			return map[bool]string{true: "yes", false: "no"}[b], true
		}
	case agreement.Score:
		var x float64
		if json.Unmarshal(raw, &x) == nil {
			return strconv.FormatFloat(x, 'g', -1, 64), true
		}
	case agreement.Pairwise:
		var s string
		if json.Unmarshal(raw, &s) == nil {
			switch strings.ToLower(s) {
			case "a", "b", "tie":
				return s, true
			}
		}
	}
	return "", false
}
