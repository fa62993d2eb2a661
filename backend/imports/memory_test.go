package imports_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"runtime"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/imports"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

// bigLines streams item lines of the given sizes in bytes (the prompt makes up the size),
// the sizes repeated rounds times, without holding any line.
func bigLines(rounds int, sizes ...int) io.Reader {
	pr, pw := io.Pipe()
	chunk := bytes.Repeat([]byte("a prompt "), 8<<10)
	go func() {
		n := 0
		for range rounds {
			for _, size := range sizes {
				n++
				fmt.Fprintf(pw, `{"external_id":"big-%03d","inputs":{"generator":"g","image":{"url":"media/%d.png"},"prompt":"`, n, n)
				for left := size - 100; left > 0; left -= len(chunk) {
					if _, err := pw.Write(chunk[:min(left, len(chunk))]); err != nil {
						return
					}
				}
				io.WriteString(pw, "\"}}\n")
			}
		}
		pw.Close()
	}()
	return pr
}

// heapInUse is the heap in use after a collection.
func heapInUse() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// TestImportMemoryBound: an import holds one batch of lines bounded by bytes, not 500 lines of
// up to 16 MiB, so its heap stays under imports.MaxImportMemory however many long lines the
// file has: lines of nearly the longest size a line may have, and the largest batch there can
// be (lines adding up to just under the batch's bytes, then a line of the longest size). The
// bound is the one docs/performance.md states.
func TestImportMemoryBound(t *testing.T) {
	if testing.Short() {
		t.Skip("import memory test skipped in -short mode")
	}
	longest := imports.MaxLineBytes - 1<<10
	shapes := []struct {
		name   string
		rounds int
		sizes  []int
	}{
		{"longest lines", 12, []int{longest}},
		{"fullest batches", 4, []int{imports.ImportBatchBytes/2 - 1<<10, imports.ImportBatchBytes/2 - 1<<10, longest}},
	}
	for _, be := range testenv.Backends() {
		for _, sh := range shapes {
			t.Run(be.Name+"/"+sh.name, func(t *testing.T) {
				st := be.Open(t)
				fp := project(t, st)
				svc := imports.New(imports.Deps{Store: st, Workflow: workflow.New(workflow.Deps{Store: st})})
				total := 0
				for _, s := range sh.sizes {
					total += sh.rounds * s
				}
				var rep *imports.ImportReport
				base := heapInUse()
				peak := peakHeap(func() {
					var err error
					if rep, err = svc.ImportItems(context.Background(), fp, "", bigLines(sh.rounds, sh.sizes...), nil); err != nil {
						t.Fatal(err)
					}
				})
				if want := sh.rounds * len(sh.sizes); rep.Imported != want || len(rep.Errors) != 0 {
					t.Fatalf("imported %d of %d lines: %+v", rep.Imported, want, rep.Errors)
				}
				grew := peak - min(base, peak)
				t.Logf("%d lines, %d MiB: the heap in use grew by %d MiB (bound %d MiB)", rep.Lines, total>>20, grew>>20, imports.MaxImportMemory>>20)
				if grew > imports.MaxImportMemory {
					t.Fatalf("the import took %d MiB of heap; the documented bound is %d MiB", grew>>20, imports.MaxImportMemory>>20)
				}
			})
		}
	}
}
