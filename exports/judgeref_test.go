package exports

import (
	"slices"
	"testing"
	"testing/fstest"

	"github.com/arbiter-annotation/arbiter/agreement"
)

// TestReadReleaseJudgeReference reads an exported release back as judge
// reference records of each judge kind, with the values judges are scored
// against; an N/A that maps to neither satisfied nor not satisfied, and a
// likert N/A, give no record.
func TestReadReleaseJudgeReference(t *testing.T) {
	rel := sinkRelease()
	sink, _ := exportTo(t, rel, mustSpec(t, &rel.Schema, []string{"jsonl", "csv"}, nil), sinkRecords())
	dir := fstest.MapFS{}
	for _, p := range sink.Paths() {
		b, _ := sink.File(p)
		dir[p] = &fstest.MapFile{Data: b}
	}
	tests := []struct {
		opts ReleaseJudgeOptions
		want []string // unit/question=value
	}{
		{ReleaseJudgeOptions{Kind: agreement.Binary}, []string{"e1/bin=yes", "e1/defect=no", "e2/bin=no", "e2/defect=yes"}},
		{ReleaseJudgeOptions{Kind: agreement.Binary, Questions: []string{"defect"}}, []string{"e1/defect=no", "e2/defect=yes"}},
		{ReleaseJudgeOptions{Kind: agreement.Score}, []string{"e1/lik=4", "e2/lik_na=7"}},
		{ReleaseJudgeOptions{Kind: agreement.Pairwise}, []string{"e1/pw=B", "e2/pw=tie"}},
	}
	for _, tt := range tests {
		jd, err := ReadReleaseJudgeReference(dir, tt.opts)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range jd.Records {
			got = append(got, r.Unit+"/"+r.Question+"="+r.Value)
		}
		slices.Sort(got)
		if !slices.Equal(got, tt.want) {
			t.Errorf("%v: records %v, want %v", tt.opts, got, tt.want)
		}
	}
	if _, err := ReadReleaseJudgeReference(fstest.MapFS{}, ReleaseJudgeOptions{Kind: agreement.Binary}); err == nil {
		t.Error("a directory without manifest.json is read")
	}
	csvOnly, _ := exportTo(t, rel, mustSpec(t, &rel.Schema, []string{"csv"}, nil), sinkRecords())
	manifest, _ := csvOnly.File("manifest.json")
	if _, err := ReadReleaseJudgeReference(fstest.MapFS{"manifest.json": {Data: manifest}}, ReleaseJudgeOptions{Kind: agreement.Binary}); err == nil {
		t.Error("a release without jsonl records is read")
	}
}
