package agreement

import (
	"encoding/json"
	"testing"
)

// TestReferenceCoupling checks D3-Omni's coupling matrices, through EvaluateJudge on a binary
// checklist, against scipy's Pearson r on the same units (testdata/reference.py): the judge's
// and the reference's matrices, the Yes- and No-side halos, the excess and the pair counts.
func TestReferenceCoupling(t *testing.T) {
	raw := loadReference(t).Judge["coupling"]
	var qs []string
	var units []struct {
		Unit       string          `json:"unit"`
		Reference  map[string]bool `json:"reference"`
		Prediction map[string]bool `json:"prediction"`
	}
	want := map[string][][]*float64{}
	json.Unmarshal(raw["questions"], &qs)
	json.Unmarshal(raw["units"], &units)
	for _, k := range []string{"judge", "reference", "yes_side", "no_side"} {
		var m [][]*float64
		if err := json.Unmarshal(raw[k], &m); err != nil || len(m) != len(qs) {
			t.Fatalf("%s: %v", k, err)
		}
		want[k] = m
	}
	var ref, pred []JudgeRecord
	yn := map[bool]string{true: "yes", false: "no"}
	for _, u := range units {
		for _, q := range qs {
			ref = append(ref, JudgeRecord{Unit: u.Unit, Question: q, Value: yn[u.Reference[q]]})
			if v, ok := u.Prediction[q]; ok {
				pred = append(pred, JudgeRecord{Unit: u.Unit, Question: q, Value: yn[v]})
			}
		}
	}
	rd, err := NewJudgeData(ref)
	if err != nil {
		t.Fatal(err)
	}
	pd, err := NewJudgeData(pred)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := EvaluateJudge(rd, pd, nil, JudgeOptions{Kind: Binary})
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Coupling
	if c == nil || len(c.Questions) != len(qs) {
		t.Fatalf("coupling: %+v", c)
	}
	got := map[string][][]Estimate{"judge": c.Judge, "reference": c.Reference, "yes_side": c.YesSide, "no_side": c.NoSide}
	undefined, coupled, strong := 0, 0, 0
	for name, m := range want {
		for a := range qs {
			for b := range qs {
				w, g := m[a][b], got[name][a][b]
				if (w == nil) != !g.Defined || (w != nil && !near(g.Value, *w, goldenTol)) {
					t.Errorf("%s[%s][%s] = %+v, want %v", name, qs[a], qs[b], g, fmtPtr(w))
				}
				if w == nil {
					undefined++
				}
				if name == "judge" && a < b && w != nil {
					coupled += b2i(*w > CoupledR)
					strong += b2i(*w > StrongR)
				}
			}
		}
	}
	for a := range qs {
		for b := range qs {
			j, r, x := want["judge"][a][b], want["reference"][a][b], c.Excess[a][b]
			if (j != nil && r != nil) != x.Defined || (x.Defined && !near(x.Value, *j-*r, goldenTol)) {
				t.Errorf("excess[%d][%d] = %+v", a, b, x)
			}
		}
	}
	// note: the data must exercise the undetermined cells (q4 is constant) and the halo
	if undefined == 0 || coupled == 0 || c.Coupled != coupled || c.Strong != strong {
		t.Fatalf("coupled %d strong %d, want %d %d (undefined cells %d)", c.Coupled, c.Strong, coupled, strong, undefined)
	}
	// a single question has no coupling
	one, _ := NewJudgeData(ref[:1])
	if r, err := EvaluateJudge(one, pd, nil, JudgeOptions{Kind: Binary}); err != nil || r.Coupling != nil {
		t.Fatalf("one question: %+v %v", r, err)
	}
}

func fmtPtr(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}
