package workflow

import (
	"encoding/json"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// MetaStrings reads an item's metadata values as strings (other JSON values as their text).
func MetaStrings(raw []byte) map[string]string {
	out := map[string]string{}
	if len(raw) == 0 {
		return out
	}
	var m map[string]json.RawMessage
	json.Unmarshal(raw, &m)
	for k, v := range m {
		if string(v) == "null" {
			continue // note: as SQL's JSON extraction, a null value is no value
		}
		var s string
		if json.Unmarshal(v, &s) != nil {
			s = string(v)
		}
		out[k] = s
	}
	return out
}

// storeItem turns a stored item into the tasks form.
func storeItem(it *store.Item) (tasks.Item, error) {
	out := tasks.Item{ExternalID: it.ExternalID}
	if err := json.Unmarshal(it.Inputs, &out.Inputs); err != nil {
		return out, err
	}
	if len(it.Meta) > 0 {
		if err := json.Unmarshal(it.Meta, &out.Meta); err != nil {
			return out, err
		}
	}
	return out, nil
}

func shuffleOf(a *store.Assignment) tasks.Shuffle {
	var sh tasks.Shuffle
	if len(a.Shuffle) > 0 {
		json.Unmarshal(a.Shuffle, &sh)
	}
	return sh
}

// DecodeAnswers reads stored answers; nil when there are none.
func DecodeAnswers(raw store.JSON) tasks.Answers {
	var a tasks.Answers
	if len(raw) > 0 {
		json.Unmarshal(raw, &a)
	}
	return a
}

// Encode writes a value as a JSON column.
func Encode(v any) store.JSON {
	b, _ := json.Marshal(v)
	return store.JSON(b)
}

// OrEmpty is the stored JSON, or an empty object for none.
func OrEmpty(j store.JSON) store.JSON {
	if len(j) == 0 {
		return store.JSON("{}")
	}
	return j
}
