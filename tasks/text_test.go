package tasks

import (
	"errors"
	"testing"
)

func TestCheckText(t *testing.T) {
	tests := []struct {
		name, in, path string
	}{
		{"clean", `{"a":"héllo","b":[1,"x",{"c":"ok"}]}`, ""},
		{"escaped NUL", `{"inputs":{"prompt":"a\u0000b"}}`, "inputs.prompt"},
		{"raw invalid utf-8 in an array", "{\"answers\":{\"notes\":[\"ok\",\"\xff\"]}}", "answers.notes[1]"},
		{"NUL in a key", `{"meta":{"k\u0000":1}}`, "meta.k\x00"},
		{"after a nested object", `{"a":{"b":{"c":1}},"d":"\u0000"}`, "d"},
		{"array of objects", `{"xs":[{"y":1},{"y":"\u0000"}]}`, "xs[1].y"},
		{"a literal backslash-u is fine", `{"a":"\\u0000"}`, ""},
	}
	for _, tt := range tests {
		err := CheckText([]byte(tt.in))
		var fe FieldErrors
		switch {
		case tt.path == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.path != "" && !errors.As(err, &fe):
			t.Errorf("%s: got %v, want a field error at %q", tt.name, err, tt.path)
		case tt.path != "":
			if _, ok := fe[tt.path]; !ok || fe[tt.path].Code != CodeInvalidText {
				t.Errorf("%s: got %v, want %q", tt.name, fe, tt.path)
			}
		}
	}
}
