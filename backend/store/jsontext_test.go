package store_test

import (
	"encoding/json"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/store"
)

func TestJSONDocument(t *testing.T) {
	for _, c := range []struct {
		doc  store.JSON
		want any // stored value
	}{{nil, nil}, {store.JSON{}, nil}, {store.JSON(`{"a":1}`), `{"a":1}`}} {
		v, err := c.doc.Value()
		if err != nil || v != c.want {
			t.Errorf("Value(%q) = %v, %v, want %v", c.doc, v, err, c.want)
		}
	}
	raw := []byte(`[1,2]`)
	var j store.JSON
	must(t, j.Scan(raw))
	raw[1] = '9'
	equal(t, "scanned bytes, kept as they were read", string(j), `[1,2]`)
	must(t, j.Scan(`"text"`))
	equal(t, "scanned text", string(j), `"text"`)
	must(t, j.Scan(nil))
	if j != nil {
		t.Fatalf("scanned NULL = %q", j)
	}
	if err := j.Scan(42); err == nil {
		t.Fatal("a number scanned as a document")
	}

	var doc struct {
		A store.JSON `json:"a"`
		B store.JSON `json:"b"`
	}
	must(t, json.Unmarshal([]byte(`{"a": {"x": [1, 2]}}`), &doc))
	equal(t, "unmarshalled document, raw", string(doc.A), `{"x": [1, 2]}`)
	out, err := json.Marshal(doc)
	must(t, err)
	equal(t, "marshalled, the empty one as null", string(out), `{"a":{"x":[1,2]},"b":null}`)
}
