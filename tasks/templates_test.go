package tasks

import (
	"encoding/json"
	"errors"
	"io/fs"
	"slices"
	"strings"
	"testing"
)

var wantTemplateIDs = []string{
	"binary-checklist", "d3omni-t2i", "d3omni-t2v", "d3omni-tts", "judgeanything-pair", "judgeanything-pair-by-rubric", "judgeanything-score", "judgeanything-score-by-rubric",
	"likert-rating", "omnireward-pair", "pairwise-preference", "robojudge",
	"storybench-image", "storybench-integrated", "storybench-speech", "storybench-text",
}

func TestTemplateIDsSorted(t *testing.T) {
	var got []string
	for _, tpl := range Templates() {
		got = append(got, tpl.ID)
	}
	if !slices.Equal(got, wantTemplateIDs) {
		t.Errorf("ids = %v\nwant %v", got, wantTemplateIDs)
	}
	if _, ok := LookupTemplate("nope"); ok {
		t.Error("LookupTemplate(nope) found something")
	}
}

// allForms returns the template's main form and its extra forms.
func allForms(tpl Template) []Form {
	return append([]Form{{Key: "main", Schema: tpl.Schema, Samples: tpl.Samples}}, tpl.Forms...)
}

func TestEveryTemplateIsValid(t *testing.T) {
	for _, tpl := range Templates() {
		t.Run(tpl.ID, func(t *testing.T) {
			if tpl.Name == "" || tpl.Description == "" || len(tpl.Guidelines) < 100 {
				t.Error("name, description and guidelines are required")
			}
			if n := len(tpl.Samples); n < 2 || n > 3 {
				t.Errorf("%d samples, want 2-3", n)
			}
			for _, f := range allForms(tpl) {
				checkForm(t, f)
			}
		})
	}
}

func checkForm(t *testing.T, f Form) {
	t.Helper()
	s := f.Schema
	if err := s.Validate(); err != nil {
		t.Fatalf("%s: schema: %v", f.Key, err)
	}
	for _, q := range s.Questions {
		if q.Label == "" || q.Help == "" {
			t.Errorf("%s.%s: label and help are required in templates", f.Key, q.Key)
		}
	}
	if err := s.ValidateAnswers(s.ExampleAnswers()); err != nil {
		t.Errorf("%s: example answers: %v", f.Key, err)
	}
	for _, it := range f.Samples {
		if err := s.ValidateItem(it); err != nil {
			t.Errorf("%s: sample %s: %v", f.Key, it.ExternalID, err)
		}
		for _, p := range mediaPaths(it) {
			if b, ct, err := readSampleMedia(p); err != nil || len(b) == 0 || ct == "" {
				t.Errorf("%s: sample %s: media %s: %v", f.Key, it.ExternalID, p, err)
			}
		}
		for _, role := range Roles {
			if _, err := s.ViewFor(role, it, 1); err != nil {
				t.Errorf("%s: view %s: %v", f.Key, role, err)
			}
		}
	}
}

// mediaPaths finds every "media/..." string in an item.
func mediaPaths(it Item) []string {
	b, _ := json.Marshal(it.Inputs)
	var out []string
	for _, part := range strings.Split(string(b), `"`) {
		if strings.HasPrefix(part, "media/") {
			out = append(out, part)
		}
	}
	return out
}

func TestD3Dimensions(t *testing.T) {
	tests := []struct {
		id       string
		count    int
		modality int // index of the first modality-related dimension
		first    string
		last     string
		defects  []int
	}{
		{"d3omni-t2i", 17, 15, "Composition & Focus", "Object Anatomy", nil},
		{"d3omni-t2v", 22, 17, "Subject Type", "Audio-Video Sync", nil},
		{"d3omni-tts", 14, 11, "Text Consistency", "Audio Frequency", []int{12, 14}},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			tpl, ok := LookupTemplate(tt.id)
			if !ok {
				t.Fatal("missing")
			}
			qs := tpl.Schema.Questions
			if len(qs) != tt.count || tpl.QuestionCount() != tt.count {
				t.Fatalf("%d questions, want %d", len(qs), tt.count)
			}
			if qs[0].Label != tt.first || qs[len(qs)-1].Label != tt.last {
				t.Errorf("first/last = %q/%q", qs[0].Label, qs[len(qs)-1].Label)
			}
			for i, q := range qs {
				checkD3Question(t, q, i+1, tt.modality, slices.Contains(tt.defects, i+1))
			}
		})
	}
}

func checkD3Question(t *testing.T, q Question, index, modality int, defect bool) {
	t.Helper()
	wantGroup := "prompt"
	if index >= modality {
		wantGroup = "modality"
	}
	if q.Index != index || q.Kind != KindBinary || q.Group != wantGroup || !q.Required || q.ShortLabel == "" {
		t.Errorf("dimension %d %q: index %d kind %s group %s", index, q.Label, q.Index, q.Kind, q.Group)
	}
	if !q.AllowNA || q.NAMeans != NASatisfied || q.Satisfied(AnswerNA) != Satisfied {
		t.Errorf("dimension %d: N/A must count as satisfied", index)
	}
	if (q.YesMeans == YesMeansDefect) != defect {
		t.Errorf("dimension %d: yes_means = %q", index, q.YesMeans)
	}
	wantYes := Satisfied
	if defect {
		wantYes = NotSatisfied
	}
	if q.Satisfied(AnswerYes) != wantYes {
		t.Errorf("dimension %d: yes normalises to %v", index, q.Satisfied(AnswerYes))
	}
	if wantGroup == "modality" && len(q.Inputs) != 1 {
		t.Errorf("dimension %d: modality dimensions see only the output, got %v", index, q.Inputs)
	}
}

func TestD3Names(t *testing.T) {
	want := map[string][]string{
		"d3omni-t2i": {"Composition & Focus", "Color Performance", "Lighting & Atmosphere", "Emotional Expression",
			"Basic Attributes", "Appearance", "Behavior", "Negative Prompt", "Spatial Relationship", "Scene Type",
			"Style & Aesthetic Adherence", "Text Accuracy", "Text Font/Typesetting", "Shot Requirement",
			"Material & Detail", "Edge & Clarity", "Object Anatomy"},
		"d3omni-t2v": {"Subject Type", "Subject Count", "Completeness (Extra/Missing)", "Appearance (Color/Shape/Clothing)",
			"Action/Behavior/State", "Background Scene Type", "Subject-Background Spatial Relation",
			"Inter-Subject Relative Position", "Subject-Camera Position/Framing", "Shot Parameters (Shot/Depth/Angle/Motion)",
			"Lighting (Direction/Source/Quality)", "Color Tone (Hue/Sat/Bright)", "Video Style/Atmosphere",
			"Audio Content Type", "Audio Style", "Audio Parameters", "Video Reality", "Video Focal", "Video Continuity",
			"Video Rhythm", "Audio Quality", "Audio-Video Sync"},
		"d3omni-tts": {"Text Consistency", "Punctuation Consistency", "Subject Age", "Subject Gender", "Subject Personality",
			"Subject Timbre", "Subject Speed", "Subject Pitch", "Subject Tone", "Subject Emotion", "Audio Clarity",
			"Audio Background", "Audio Volume Stability", "Audio Frequency"},
	}
	for id, names := range want {
		tpl, _ := LookupTemplate(id)
		var got []string
		for _, q := range tpl.Schema.Questions {
			got = append(got, q.Label)
		}
		if !slices.Equal(got, names) {
			t.Errorf("%s names:\n got %q\nwant %q", id, got, names)
		}
	}
}

func TestD3TTSInputs(t *testing.T) {
	tpl, _ := LookupTemplate("d3omni-tts")
	s := tpl.Schema
	for _, name := range []string{"prompt_instruction", "prompt_text", "audio"} {
		if _, ok := s.Input(name); !ok {
			t.Errorf("missing input %s", name)
		}
	}
	for i, q := range s.Questions {
		want := "prompt_instruction"
		if i < 2 {
			want = "prompt_text"
		}
		if i < 10 && !slices.Contains(q.Inputs, want) {
			t.Errorf("dimension %d sees %v, want %s", i+1, q.Inputs, want)
		}
	}
	a := s.ExampleAnswers()
	a["audio_background"], a["audio_frequency"], a["subject_age"] = json.RawMessage(`"no"`), json.RawMessage(`"na"`), json.RawMessage(`"na"`)
	vec := s.SatisfactionVector(a)
	for i, v := range vec {
		if v != Satisfied {
			t.Errorf("dimension %d: %v, want satisfied", i+1, v)
		}
	}
}

func TestRoboJudgeVisibility(t *testing.T) {
	tpl, _ := LookupTemplate("robojudge")
	s := tpl.Schema
	keys := []string{"physical_adherence", "pa_checklist", "pa_evidence", "instruction_alignment", "ia_checklist", "ia_evidence"}
	for i, k := range keys {
		q, ok := s.Question(k)
		if !ok {
			t.Fatalf("missing %s", k)
		}
		seesInstruction := slices.Contains(q.Inputs, "instruction")
		if seesInstruction != (i >= 3) || (i >= 3 && !slices.Contains(q.Inputs, "first_frame")) {
			t.Errorf("%s inputs %v", k, q.Inputs)
		}
	}
	pa, _ := s.Subset(keys[:3]...)
	item := tpl.Samples[0]
	for _, role := range []Role{RoleAnnotator, RoleReviewer, RoleAdjudicator, RoleViewer} {
		v, err := pa.ViewFor(role, item, 5)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := json.Marshal(v)
		for _, secret := range []string{"Pick up the green cube", "video-gen-07", "robot_first_frame.png", "DROID"} {
			if strings.Contains(string(body), secret) {
				t.Errorf("%s PA view leaks %q", role, secret)
			}
		}
	}
	full, _ := s.ViewFor(RoleAnnotator, item, 5)
	body, _ := json.Marshal(full)
	if !strings.Contains(string(body), "Pick up the green cube") || strings.Contains(string(body), "video-gen-07") {
		t.Error("full annotator view: instruction must show, generator must not")
	}
	cl, _ := s.Question("pa_checklist")
	if len(cl.Items) != 3 || cl.Items[0].Max != 2 {
		t.Errorf("pa checklist %+v", cl.Items)
	}
}

func TestStoryBenchTracks(t *testing.T) {
	for _, id := range []string{"storybench-text", "storybench-image", "storybench-speech", "storybench-integrated"} {
		tpl, _ := LookupTemplate(id)
		var scores int
		for _, q := range tpl.Schema.Questions {
			if q.Kind == KindLikert {
				scores++
				if *q.Min != 1 || *q.Max != 10 || len(q.Anchors) != 3 {
					t.Errorf("%s.%s: scale %d..%d anchors %d", id, q.Key, *q.Min, *q.Max, len(q.Anchors))
				}
				if r, ok := tpl.Schema.Question(q.Key + "_rationale"); !ok || !r.Required {
					t.Errorf("%s.%s: required rationale missing", id, q.Key)
				}
			}
		}
		if scores != 4 || tpl.Schema.Questions[0].Key != "alignment_with_metadata" {
			t.Errorf("%s: %d criteria", id, scores)
		}
	}
	img, _ := LookupTemplate("storybench-image")
	if _, ok := img.Schema.Input("current_narration"); ok {
		t.Error("image track must not show the current narration")
	}
}

func TestPairTemplatesAllowTie(t *testing.T) {
	for _, id := range []string{"judgeanything-pair", "omnireward-pair", "pairwise-preference"} {
		tpl, _ := LookupTemplate(id)
		for _, q := range tpl.Schema.Questions {
			if q.Kind == KindPairwise && !q.AllowTie {
				t.Errorf("%s.%s: tie not allowed", id, q.Key)
			}
		}
	}
	ja, _ := LookupTemplate("judgeanything-pair")
	if n := ja.QuestionCount(); n != 14 {
		t.Errorf("judgeanything-pair: %d questions, want 7 choices + 7 comments", n)
	}
	or, _ := LookupTemplate("omnireward-pair")
	f, ok := or.Form("criteria")
	if q := f.Schema.Questions; !ok || len(q) != 1 || q[0].Kind != KindCriteria {
		t.Errorf("omnireward criteria form: %+v", f)
	}
}

func TestSampleMedia(t *testing.T) {
	tpl, _ := LookupTemplate("d3omni-t2i")
	b, ct, err := tpl.SampleMedia("media/apple.png")
	if err != nil || ct != "image/png" || len(b) == 0 {
		t.Errorf("apple.png: %v %s", err, ct)
	}
	for _, bad := range []string{"../templates.go", "media/../d3omni-t2i.yaml", "d3omni-t2i.yaml", "media/nope.png"} {
		if _, _, err := tpl.SampleMedia(bad); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: err = %v", bad, err)
		}
	}
	var total int64
	err = fs.WalkDir(SampleMediaFS(), "media", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			info, _ := d.Info()
			total += info.Size()
		}
		return err
	})
	if err != nil || total == 0 || total > 2<<20 {
		t.Errorf("media total %d bytes, err %v", total, err)
	}
	if _, err := SampleMediaFS().Open("d3omni-t2i.yaml"); err == nil {
		t.Error("SampleMediaFS exposes template files")
	}
}

func TestTemplatesAreCopies(t *testing.T) {
	a, _ := LookupTemplate("robojudge")
	a.Schema.Questions[0].Label = "changed"
	b, _ := LookupTemplate("robojudge")
	if b.Schema.Questions[0].Label == "changed" {
		t.Error("templates share state between calls")
	}
}
