package exports

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestPseudonymMatchesExport: the exported Pseudonym is the name Export writes for a user.
func TestPseudonymMatchesExport(t *testing.T) {
	rel := sinkRelease()
	spec := mustSpec(t, &rel.Schema, []string{"jsonl"}, map[string]any{"raw": true})
	sink, _ := exportTo(t, rel, spec, sinkRecords())
	b, _ := sink.File("jsonl/test.jsonl")
	want := Pseudonym(rel.Salt, "user-a")
	if want != newPseudonyms(rel.Salt).of("user-a") || !json.Valid([]byte(`"`+want+`"`)) {
		t.Fatalf("Pseudonym = %q", want)
	}
	if !bytes.Contains(b, []byte(want)) {
		t.Fatalf("the release does not name user-a %s", want)
	}
	if Pseudonym([]byte("other"), "user-a") == want {
		t.Fatal("the pseudonym does not depend on the salt")
	}
}

// TestSpecMatches applies the metadata filter as Export does: strings as they are, numbers
// and booleans as written, anything else never matches.
func TestSpecMatches(t *testing.T) {
	spec := mustSpec(t, &sinkRelease().Schema, []string{"jsonl"}, map[string]any{"filter": map[string]any{"task": []any{"t2i", "7"}}})
	meta := func(v string) map[string]json.RawMessage {
		return map[string]json.RawMessage{"task": json.RawMessage(v)}
	}
	for raw, want := range map[string]bool{`"t2i"`: true, `7`: true, `"t2v"`: false, `["t2i"]`: false, `null`: false} {
		if got := spec.Matches(meta(raw)); got != want {
			t.Errorf("task %s: Matches = %v, want %v", raw, got, want)
		}
	}
	if spec.Matches(nil) {
		t.Error("an item without the key passed the filter")
	}
	if !mustSpec(t, &sinkRelease().Schema, []string{"jsonl"}, nil).Matches(nil) {
		t.Error("without a filter every item matches")
	}
}

// TestExtraFilesListed: files the caller wrote itself are listed in the manifest in path
// order with the rest.
func TestExtraFilesListed(t *testing.T) {
	rel := sinkRelease()
	spec := mustSpec(t, &rel.Schema, []string{"jsonl"}, nil)
	extra := []FileEntry{{Path: "media/b.png", Format: "media", Bytes: 3, SHA256: "bb"}, {Path: "aaa/x.wav", Format: "media", Bytes: 1, SHA256: "aa"}}
	calls := 0
	m, err := Export(t.Context(), Job{Release: rel, Spec: spec, Sink: &MemorySink{},
		ExtraFiles: func() []FileEntry { calls++; return extra }}, seq(sinkRecords()))
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range m.Files {
		paths = append(paths, f.Path)
	}
	want := []string{"README.md", "aaa/x.wav", "agreement.json", "jsonl/test.jsonl", "media/b.png"}
	if calls != 1 || len(paths) != len(want) {
		t.Fatalf("%d calls, files %v", calls, paths)
	}
	for i := range want {
		if paths[i] != want[i] {
			t.Fatalf("files %v, want %v", paths, want)
		}
	}
}

// TestCardAgreementScope: the card says what the agreement figures were computed over.
func TestCardAgreementScope(t *testing.T) {
	rel := sinkRelease()
	spec := mustSpec(t, &rel.Schema, []string{"jsonl"}, nil)
	for scope, want := range map[string]string{"": "computed over the whole project (", "the first 2000 items": "computed over the first 2000 items ("} {
		rel.Figures.AgreementScope = scope
		sink, _ := exportTo(t, rel, spec, sinkRecords())
		card, _ := sink.File("README.md")
		if !bytes.Contains(card, []byte(want)) {
			t.Errorf("scope %q: the card does not say %q", scope, want)
		}
	}
}
