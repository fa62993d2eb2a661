//go:build unix

package imports

import (
	"syscall"
	"testing"
	"time"
)

// BenchmarkParseLine is the server's share of an import line by line, on one processor:
// parseLine of the benchmarks' lines without and with ground truth.
func BenchmarkParseLine(b *testing.B) {
	p := d3omniProject(b)
	for _, truth := range []bool{false, true} {
		b.Run(map[bool]string{false: "plain", true: "truth"}[truth], func(b *testing.B) {
			lines := make([][]byte, 1000)
			for i := range lines {
				lines[i] = []byte(d3omniLine(p.Schema, i+1, truth))
			}
			b.ReportAllocs()
			b.ResetTimer()
			names := newKeyNames(p.Schema)
			cpu := processCPU()
			for i := 0; i < b.N; i++ {
				if l := parseLine(p, rawLine{n: i, data: lines[i%len(lines)]}, false, names); l.err != nil || l.late != nil {
					b.Fatal(l.err, l.late)
				}
			}
			b.ReportMetric(float64((processCPU()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}

// processCPU is the CPU time the process has spent, user and system (the collector's included):
// on a machine shared with other work it is steadier than the time elapsed.
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
