package testenv

import (
	"fmt"
	"os"
	"slices"
	"strings"
)

// LoadAverage is the machine's 1, 5 and 15 minute load average, printed beside measurements
// ("unknown" where the system does not tell).
func LoadAverage() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// Spread is "min / median / max" of xs, each printed with format (e.g. "%.2f").
func Spread(xs []float64, format string) string {
	s := slices.Sorted(slices.Values(xs))
	return fmt.Sprintf(format+" / "+format+" / "+format, s[0], s[len(s)/2], s[len(s)-1])
}
