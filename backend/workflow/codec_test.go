package workflow_test

import (
	"reflect"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

// TestMetaStrings reads metadata values as text; a null is no value.
func TestMetaStrings(t *testing.T) {
	got := workflow.MetaStrings([]byte(`{"domain":"news","year":2024,"ok":true,"gone":null,"tags":["a"]}`))
	want := map[string]string{"domain": "news", "year": "2024", "ok": "true", "tags": `["a"]`}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("meta %v, want %v", got, want)
	}
	if got := workflow.MetaStrings(nil); got == nil || len(got) != 0 {
		t.Fatalf("no metadata reads as %v", got)
	}
}

func TestCodec(t *testing.T) {
	if string(workflow.OrEmpty(nil)) != "{}" || string(workflow.OrEmpty(store.JSON(`{"a":1}`))) != `{"a":1}` {
		t.Fatal("OrEmpty")
	}
	if got := workflow.DecodeAnswers(workflow.Encode(map[string]int{"score": 3})); string(got["score"]) != "3" {
		t.Fatalf("round trip %v", got)
	}
	if workflow.DecodeAnswers(nil) != nil {
		t.Fatal("no answers decode as some")
	}
}
