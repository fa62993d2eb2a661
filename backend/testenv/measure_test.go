package testenv

import "testing"

func TestSpread(t *testing.T) {
	if got := Spread([]float64{3, 1.25, 2, 9}, "%.2f"); got != "1.25 / 3.00 / 9.00" {
		t.Errorf("Spread = %q", got)
	}
	if got := LoadAverage(); got == "" {
		t.Error("LoadAverage is empty")
	}
}
