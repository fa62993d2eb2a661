package tasks

import "testing"

func TestCanonicalLanguage(t *testing.T) {
	for in, want := range map[string]string{"en": "en", "EN-us": "en-US", "zh-hans-cn": "zh-Hans-CN", " zh ": "zh"} {
		if got, err := CanonicalLanguage(in); err != nil || got != want {
			t.Errorf("CanonicalLanguage(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "english!", "x", "en_US_", "und"} {
		if got, err := CanonicalLanguage(bad); err == nil {
			t.Errorf("CanonicalLanguage(%q) = %q, want an error", bad, got)
		}
	}
	got, err := CanonicalLanguages("languages", []string{"zh", "EN", "en"})
	if err != nil || len(got) != 2 || got[0] != "en" || got[1] != "zh" {
		t.Errorf("CanonicalLanguages = %v, %v", got, err)
	}
	if _, err := CanonicalLanguages("languages", []string{"en", "??"}); err == nil || err.(FieldErrors)["languages[1]"].Code != CodeInvalidLanguage {
		t.Errorf("bad tag error = %v", err)
	}
}

func TestReadsLanguage(t *testing.T) {
	cases := []struct {
		reads []string
		item  string
		want  bool
	}{
		{nil, "zh", true}, {[]string{"en"}, "", true}, {[]string{"en"}, "en-US", true},
		{[]string{"en"}, "zh", false}, {[]string{"en-US"}, "en", false}, {[]string{"e"}, "en", false},
		{[]string{"en", "zh"}, "zh-Hans", true},
	}
	for _, c := range cases {
		if got := ReadsLanguage(c.reads, c.item); got != c.want {
			t.Errorf("ReadsLanguage(%v, %q) = %v, want %v", c.reads, c.item, got, c.want)
		}
	}
}
