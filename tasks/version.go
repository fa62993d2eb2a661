package tasks

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// ContentHash returns a stable SHA-256 (hex) of everything in the schema
// except its Version, so two schemas that ask the same thing the same way
// hash the same whatever version number they carry. The hash is over the
// schema's JSON encoding, whose field order is fixed by the Go types.
func (s *Schema) ContentHash() string {
	c := *s
	c.Version = 0
	if c.Format == 0 {
		c.Format = FormatVersion
	}
	b, err := json.Marshal(c)
	if err != nil { // cannot happen: Schema holds only marshalable fields
		panic("tasks: marshal schema: " + err.Error())
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Changes lists the top-level parts that differ between two schemas
// ("inputs", "questions[2]", "questions", "groups", "title", ...), for
// showing a lead why a new version is being created.
func Changes(old, next *Schema) []string {
	var out []string
	diff := func(name string, a, b any) {
		if !sameJSON(a, b) {
			out = append(out, name)
		}
	}
	diff("format", max(old.Format, FormatVersion), max(next.Format, FormatVersion))
	diff("title", old.Title, next.Title)
	diff("instructions", old.Instructions, next.Instructions)
	diff("groups", old.Groups, next.Groups)
	diff("inputs", old.Inputs, next.Inputs)
	if len(old.Questions) != len(next.Questions) {
		return append(out, "questions")
	}
	for i := range old.Questions {
		diff("questions["+itoa(i)+"]", old.Questions[i], next.Questions[i])
	}
	return out
}

func sameJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
