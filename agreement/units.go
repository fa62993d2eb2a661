package agreement

// unitScan iterates over units handing out the distinct values of each unit
// with their counts, using one scratch array for the whole table.
type unitScan struct {
	t       *Table
	cnt     []int32
	touched []int32
}

func newUnitScan(t *Table) *unitScan {
	return &unitScan{t: t, cnt: make([]int32, len(t.values)), touched: make([]int32, 0, 16)}
}

// each calls fn(u, m, distinct, cnt) for every unit with at least minSize
// ratings; cnt[v] is the count of value v in the unit for v in distinct.
func (s *unitScan) each(minSize int, fn func(u, m int, distinct, cnt []int32)) {
	t := s.t
	for u := range t.units {
		m := t.unitSize(u)
		if m < minSize {
			continue
		}
		_, vs := t.UnitRatings(u)
		s.touched = s.touched[:0]
		for _, v := range vs {
			if s.cnt[v] == 0 {
				s.touched = append(s.touched, v)
			}
			s.cnt[v]++
		}
		fn(u, m, s.touched, s.cnt)
		for _, v := range s.touched {
			s.cnt[v] = 0
		}
	}
}

// growAcc makes sure a per-size slice of accumulators has index m.
func growAcc(a []accumulator, m int) []accumulator {
	for m >= len(a) {
		a = append(a, accumulator{})
	}
	return a
}
