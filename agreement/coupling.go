package agreement

import "slices"

// Coupling thresholds of D3-Omni (§5.4): a pair of dimensions is coupled when a judge's
// correlation exceeds CoupledR and strongly entangled above StrongR.
const (
	CoupledR = 0.6
	StrongR  = 0.8
)

// Coupling is D3-Omni's dimension-coupling matrix Σ (Eq. 4) of a judge on binary checklists:
// entry (d, d') is Pearson's r of the Yes/No indicators of dimensions d and d' across the
// units that answer both. It is computed on the judge's predictions and on the reference; the
// excess Σ_judge − Σ_reference is spurious coupling (the judge lets its decision on one
// dimension drag another). The polarity-conditioned matrices (Figure 4) correlate the judge's
// predictions only over the units whose reference is Yes on both dimensions (the
// confirmation-side halo) or No on both (the defect-side halo): there a prediction differing
// from the reference is an error, so these two are the correlation of the judge's errors on
// d with its errors on d'. A cell is null (undetermined) when fewer than two units qualify or
// either side is constant; the diagonal is 1 wherever a dimension varies.
type Coupling struct {
	Questions []string     `json:"questions"`
	Judge     [][]Estimate `json:"judge"`
	Reference [][]Estimate `json:"reference"`
	Excess    [][]Estimate `json:"excess"`
	YesSide   [][]Estimate `json:"yes_side"`
	NoSide    [][]Estimate `json:"no_side"`
	// Unordered pairs whose judge correlation exceeds CoupledR (coupled) and StrongR (strong).
	Coupled int `json:"coupled"`
	Strong  int `json:"strong"`
}

// CoupleDimensions computes the coupling matrices of answer vectors (ref[i] and pred[i] are
// one unit). Only questions in the reference are dimensions, in key order; a unit counts for
// a pair when both its reference and the judge answer both questions.
func CoupleDimensions(ref, pred []AnswerVector) (*Coupling, error) {
	if len(ref) != len(pred) {
		return nil, ErrMismatch
	}
	if len(ref) == 0 {
		return nil, ErrNoData
	}
	var qs []string
	seen := map[string]bool{}
	for _, r := range ref {
		for q := range r {
			if !seen[q] {
				seen[q] = true
				qs = append(qs, q)
			}
		}
	}
	slices.Sort(qs)
	// note: one byte per (unit, question): bit 0 reference answered, bit 1 reference Yes,
	// bit 2 judge answered, bit 3 judge Yes; pairs then read flat columns, not maps
	cols := make([][]byte, len(qs))
	for k, q := range qs {
		col := make([]byte, len(ref))
		for i, r := range ref {
			if v, ok := r[q]; ok {
				col[i] |= 1 | byte(b2i(v))<<1
			}
			if v, ok := pred[i][q]; ok {
				col[i] |= 4 | byte(b2i(v))<<3
			}
		}
		cols[k] = col
	}
	return coupleColumns(qs, cols), nil
}

// coupleColumns is CoupleDimensions over answer columns: cols[k][i] holds unit i's answers
// to qs[k] as bits (0 reference answered, 1 reference Yes, 2 judge answered, 3 judge Yes).
func coupleColumns(qs []string, cols [][]byte) *Coupling {
	D := len(qs)
	c := &Coupling{Questions: qs, Judge: square(D), Reference: square(D), Excess: square(D), YesSide: square(D), NoSide: square(D)}
	for a := range D {
		for b := a; b < D; b++ {
			// tables[k]: 2×2 counts [first yes][second yes] — 0 judge, 1 reference, 2 yes side, 3 no side
			var tables [4][2][2]int64
			ca, cb := cols[a], cols[b]
			for i := range ca {
				x, y := ca[i], cb[i]
				if x&5 != 5 || y&5 != 5 {
					continue
				}
				pa, pb := x>>3&1, y>>3&1
				ra, rb := x>>1&1, y>>1&1
				tables[0][pa][pb]++
				tables[1][ra][rb]++
				switch {
				case ra == 1 && rb == 1:
					tables[2][pa][pb]++
				case ra == 0 && rb == 0:
					tables[3][pa][pb]++
				}
			}
			for k, m := range [][][]Estimate{c.Judge, c.Reference, c.YesSide, c.NoSide} {
				t := tables[k]
				e := Estimate{}
				if r, err := BinaryCorrelation(t[1][1], t[1][0], t[0][1], t[0][0]); err == nil {
					e = Estimate{r, true}
				}
				m[a][b], m[b][a] = e, e
			}
			j, r := c.Judge[a][b], c.Reference[a][b]
			x := Estimate{j.Value - r.Value, j.Defined && r.Defined}
			if !x.Defined {
				x.Value = 0
			}
			c.Excess[a][b], c.Excess[b][a] = x, x
			if a != b && j.Defined {
				if j.Value > CoupledR {
					c.Coupled++
				}
				if j.Value > StrongR {
					c.Strong++
				}
			}
		}
	}
	return c
}

func square(n int) [][]Estimate {
	m := make([][]Estimate, n)
	for i := range m {
		m[i] = make([]Estimate, n)
	}
	return m
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
