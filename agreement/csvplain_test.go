package agreement

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// sameRead reads data with the streaming reader (whole, and from readers
// that return a few bytes at a time into small chunks) and with the general
// reader, and fails unless all give the same table or the same error.
func sameRead(t *testing.T, data []byte, level Level) *Table {
	t.Helper()
	want, wantErr := parseRecords(data, ReadOptions{Format: CSV, Level: level})
	reads := map[string]func() (*Table, error){
		"whole":  func() (*Table, error) { return readCSVRatings(nil, data, level, len(data)) },
		"stream": func() (*Table, error) { return readCSVRatings(bytes.NewReader(data), nil, level, 0) },
		"chunks of 16, reads of 1": func() (*Table, error) {
			return readCSVChunks(iotest.OneByteReader(bytes.NewReader(data)), nil, level, 0, 16)
		},
		"chunks of 8, half reads": func() (*Table, error) {
			return readCSVChunks(iotest.HalfReader(bytes.NewReader(data)), nil, level, len(data), 8)
		},
	}
	for name, read := range reads {
		got, err := read()
		if fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Fatalf("%s: error %v, general reader %v\ninput %q", name, err, wantErr, data)
		}
		if err == nil {
			if d := tableDiff(got, want.Table); d != "" {
				t.Fatalf("%s: %s\ninput %q", name, d, data)
			}
		}
	}
	if wantErr != nil {
		return nil
	}
	return want.Table
}

// fastPathReadsAll reports whether readCSVRatings reads all of data with
// addPlainRows, without the general reader.
func fastPathReadsAll(data []byte) bool {
	data = bytes.TrimPrefix(data, bom)
	nl := bytes.IndexByte(data, '\n')
	if nl < 0 || bytes.IndexByte(data, '"') >= 0 || !plainHeader(data[:nl]) {
		return false
	}
	body := data[nl+1:]
	taken, _, ok := NewBuilder(Nominal, 0).addPlainRows(body)
	return ok && taken == len(body)
}

// tableDiff describes the first difference between two tables, or "".
func tableDiff(a, b *Table) string {
	switch {
	case a.level != b.level:
		return "level differs"
	case !slices.Equal(a.units, b.units):
		return fmt.Sprintf("units %q, want %q", a.units, b.units)
	case !slices.Equal(a.raters, b.raters):
		return fmt.Sprintf("raters %q, want %q", a.raters, b.raters)
	case !slices.Equal(a.values, b.values):
		return fmt.Sprintf("values %q, want %q", a.values, b.values)
	case !slices.Equal(a.numbers, b.numbers):
		return fmt.Sprintf("numbers %v, want %v", a.numbers, b.numbers)
	case !slices.Equal(a.unitStart, b.unitStart):
		return fmt.Sprintf("unit starts %v, want %v", a.unitStart, b.unitStart)
	case !slices.Equal(a.rater, b.rater) || !slices.Equal(a.value, b.value):
		return fmt.Sprintf("ratings %v %v, want %v %v", a.rater, a.value, b.rater, b.value)
	}
	return ""
}

func TestStreamingCSVMatchesGeneralReader(t *testing.T) {
	tests := []struct {
		name, data string
		err        string // "": must read
		plain      bool   // the fast path reads the whole input
	}{
		{"plain", "unit,rater,value\nu1,a,1\nu1,b,2\nu2,a,1\nu2,b,1\n", "", true},
		{"no final newline", "unit,rater,value\nu1,a,1\nu1,b,2", "", true},
		{"CRLF and a BOM", "\xef\xbb\xbfUnit , RATER,value\r\nu1,a,1\r\nu1,b,2\r\n", "", true},
		{"blank lines", "unit,rater,value\n\nu1,a,1\n\r\nu1,b,2\n\n", "", true},
		{"missing values", "unit,rater,value\nu1,a,\nu1,b,2\nu1,c\nu1,d\r\nu2,a,3\n", "", true},
		{"more columns", "unit,rater,value,note,unit\nu1,a,1,x,y\nu1,b,2,\nu2,a,3,,,,\n", "", true},
		{"units apart", "unit,rater,value\nu1,a,1\nu2,a,2\nu1,b,1\nu2,b,3\nu1,c,1\n", "", true},
		{"long names", "unit,rater,value\n" + strings.Repeat("x", 40) + "," + strings.Repeat("r", 30) + ",very long label\n" + strings.Repeat("x", 40) + ",b,short\n", "", true},
		{"quotes later on", "unit,rater,value\nu1,a,1\nu1,b,2\n\"u,2\",a,\"1\"\n\"u,2\",b,\"x\"\"\ny\"\nu3,a,1\nu3,b,1\n", "", false},
		{"quote in a field", "unit,rater,value\nu1,a,5\"\nu1,b,5\"\n", "", false},
		{"other column order", "rater,unit,value\na,u1,1\nb,u1,2\n", "", false},
		{"header only", "unit,rater,value\n", "no ratings", true},
		{"empty", "", "empty CSV input", false},
		{"no value column", "unit,rater\nu1,a\n", `no "value" column`, false},
		{"empty unit", "unit,rater,value\nu1,a,1\n,b,2\n", "line 3: invalid input: missing unit or rater", false},
		{"empty rater after quotes", "unit,rater,value\n\"u1\",a,1\nu1,,2\n", "line 3: invalid input: missing unit or rater", false},
		{"one column", "unit,rater,value\nu1,a,1\n\n\nu1\n", "line 5: invalid input: missing unit or rater", false},
		{"blank with spaces", "unit,rater,value\nu1,a,1\n  \n", "line 3: invalid input: missing unit or rater", false},
		{"duplicate rating", "unit,rater,value\nu1,a,1\nu2,a,1\nu1,a,2\n", "duplicate rating", true},
		{"unterminated quote", "unit,rater,value\nu1,a,1\n\"u1,b,1\n", "unterminated quoted field", false},
	}
	// the same lines between enough rows that the line-window path sees them
	pad := func(prefix string) string {
		var b strings.Builder
		for i := range 3 {
			fmt.Fprintf(&b, "%s%d,a,1\n%s%d,b,2\n%s%d,c,1\n", prefix, i, prefix, i, prefix, i)
		}
		return b.String()
	}
	long := "x" + strings.Repeat("y", 28) + ",b,2\n" // 32 bytes with the newline
	for _, tc := range []struct{ name, line, err string }{
		{"padded blank lines", "\n\r\n", ""},
		{"padded missing values", "p2,b,\np2,c,\r\np2,d\np3,a,\n", ""},
		{"padded extra columns", "p3,a,1,x\np3,b,2,\n", ""},
		{"padded CRLF", "p3,a,1\r\np3,b,2\r\n", ""},
		{"padded 31 and 32 byte lines", long[1:] + long, ""},
		{"padded empty unit", ",a,1\n", "line 11: invalid input: missing unit or rater"},
		{"padded empty rater", "p3,,1\n", "line 11: invalid input: missing unit or rater"},
		{"padded one column", "p3\n", "line 11: invalid input: missing unit or rater"},
	} {
		tests = append(tests, struct {
			name, data string
			err        string
			plain      bool
		}{tc.name, "unit,rater,value\n" + pad("p") + tc.line + pad("q"), tc.err, tc.err == ""})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tab := sameRead(t, []byte(tc.data), Nominal)
			_, err := ParseRatings([]byte(tc.data), ReadOptions{Format: CSV, Level: Nominal})
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("error %v", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("error %v, want one with %q", err, tc.err)
			case tc.err == "" && tab.NumRatings() == 0:
				t.Fatal("no ratings read")
			}
			if all := fastPathReadsAll([]byte(tc.data)); all != tc.plain {
				t.Errorf("fast path reads the whole input: %v, want %v", all, tc.plain)
			}
		})
	}
}

// TestStreamingCSVGenerated compares the readers on generated files: units
// in runs or scattered, missing values, CRLF, text and numeric values, at
// every level, read across many chunk boundaries.
func TestStreamingCSVGenerated(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 11))
	for i := range 40 {
		var b strings.Builder
		b.WriteString("unit,rater,value\n")
		eol := []string{"\n", "\r\n"}[i%2]
		numeric := i%3 != 0
		for u := range 50 + rng.IntN(200) {
			unit := fmt.Sprintf("item-%d", u)
			if i%4 == 3 {
				unit = fmt.Sprintf("i%d", rng.IntN(60)) // units scattered over the file
			}
			for r := range 1 + rng.IntN(5) {
				v := fmt.Sprint(rng.IntN(7))
				if !numeric {
					v = []string{"yes", "no", "n/a", "maybe"}[rng.IntN(4)]
				}
				if rng.IntN(10) == 0 {
					v = ""
				}
				fmt.Fprintf(&b, "%s,r%d,%s%s", unit, r, v, eol)
			}
		}
		if !fastPathReadsAll([]byte(b.String())) {
			t.Fatalf("file %d: the fast path gave up", i)
		}
		for _, level := range []Level{Nominal, Ordinal, Interval, Ratio} {
			sameRead(t, []byte(b.String()), level)
		}
	}
}

func TestStreamingCSVTestdata(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.csv"))
	if len(files) < 5 {
		t.Fatalf("testdata has %d CSV files", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, level := range []Level{Nominal, Ordinal, Interval, Ratio} {
			sameRead(t, data, level)
		}
	}
}

// FuzzCSVReaders checks that the streaming and the general CSV reader
// accept the same inputs and build the same tables.
func FuzzCSVReaders(f *testing.F) {
	f.Add([]byte("unit,rater,value\nu1,a,1\nu1,b,2\nu2,a,1\nu2,b,1\n"), uint8(0))
	f.Add([]byte("unit,rater,value\r\n\"u,1\",a,\"x\"\"\"\r\nu1,b,\n\nu2,a\n"), uint8(1))
	f.Add([]byte("\xef\xbb\xbfunit,rater,value,x\nu1,a,1,2\n,b,2\n"), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, sel uint8) {
		sameRead(t, data, Level(sel%4))
	})
}
