package workflow_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"slices"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/media"
	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// framedSchema shows a clip in its first pass and the initial frame only in the second.
func framedSchema() tasks.Schema {
	return tasks.Schema{
		Version: 1, Title: "framed",
		Inputs: []tasks.Input{{Name: "clip", Type: tasks.InputImage, Label: "Clip"}, {Name: "frame", Type: tasks.InputImage, Label: "Initial frame"}},
		Questions: []tasks.Question{
			{Key: "physics", Kind: tasks.KindLikert, Label: "Physics", Required: true, Min: intp(1), Max: intp(5), Inputs: []string{"clip"}},
			{Key: "alignment", Kind: tasks.KindLikert, Label: "Alignment", Required: true, Min: intp(1), Max: intp(5)},
		},
		Passes: []tasks.Pass{
			{Key: "pa", Label: "Physics", Inputs: []string{"clip"}, Questions: []string{"physics"}},
			{Key: "ia", Label: "Alignment", Inputs: []string{"clip", "frame"}, Questions: []string{"alignment"}},
		},
	}
}

// pngBytes is a small image, different for every shade.
func pngBytes(t *testing.T, shade uint8) []byte {
	t.Helper()
	img := image.NewGray(image.Rect(0, 0, 2, 2))
	img.Pix[0] = shade
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestAssetURL: links to files are signed for members of the file's project only, and while a
// person works in a pass, the files of the inputs that pass hides are refused.
func TestAssetURL(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		m := media.New(f.st, testenv.LocalBlobs(t), media.Config{MaxUploadBytes: 1 << 20, SignedURLTTL: time.Minute, PublicURL: "https://arbiter.example"})
		wf := workflow.New(workflow.Deps{Store: f.st, Media: m})
		wf.SetClock(func() time.Time { return f.now })
		s := framedSchema()
		pol := workflow.Policy{}
		p := f.project(projects.ProjectSpec{Name: "framed", Schema: &s, Workflow: &pol})
		clip, err := m.Upload(f.ctx, p.ID, f.lead.ID, "clip.png", bytes.NewReader(pngBytes(t, 1)))
		if err != nil {
			t.Fatal(err)
		}
		frame, err := m.Upload(f.ctx, p.ID, f.lead.ID, "frame.png", bytes.NewReader(pngBytes(t, 2)))
		if err != nil {
			t.Fatal(err)
		}
		f.importItems(p, fmt.Sprintf(`{"external_id":"fr-1","inputs":{"clip":{"asset":%q},"frame":{"asset":%q}}}`, clip.ID, frame.ID))
		ann := f.member(p, store.RoleAnnotator)
		admin := f.user("admin")
		admin.IsAdmin = true
		outsider := f.user("outsider")

		sign := func(u *store.User, id string) error {
			t.Helper()
			url, err := wf.AssetURL(f.ctx, u, id)
			if err == nil && (url.ContentType != "image/png" || url.URL == "") {
				t.Fatalf("signed %+v", url)
			}
			return err
		}
		if err := sign(ann.User, frame.ID); err != nil {
			t.Fatalf("a member without open work: %v", err)
		}
		c, err := wf.Next(f.ctx, p, ann.User, ann.roles, flow.StageLabel, false)
		if err != nil || c.View.Pass.Number != 1 {
			t.Fatalf("claim: %v", err)
		}
		wantErr(t, sign(ann.User, frame.ID), workflow.ErrHiddenInPass)
		if err := sign(ann.User, clip.ID); err != nil {
			t.Fatalf("the file the pass shows: %v", err)
		}
		for _, u := range []*store.User{f.lead, admin} {
			if err := sign(u, frame.ID); err != nil {
				t.Fatalf("%s reads whole items: %v", u.Name, err)
			}
		}
		wantErr(t, sign(outsider, frame.ID), store.ErrNotFound)
		wantErr(t, sign(ann.User, "no-such-asset"), store.ErrNotFound)

		if _, err := wf.Submit(f.ctx, p, ann.w(), c.Assignment.ID, workflow.Submission{Answers: ans(`{"physics":3}`)}); err != nil {
			t.Fatal(err)
		}
		if err := sign(ann.User, frame.ID); err != nil {
			t.Fatalf("the frame in the pass that shows it: %v", err)
		}
	})
}

// TestAssetIDs lists the files an input value refers to, by input type.
func TestAssetIDs(t *testing.T) {
	cases := []struct {
		typ  tasks.InputType
		raw  string
		want []string
	}{
		{tasks.InputImage, `{"asset":"a1"}`, []string{"a1"}},
		{tasks.InputVideo, `{"url":"https://example.org/v.mp4"}`, nil},
		{tasks.InputAudio, `{"asset":"a2"}`, []string{"a2"}},
		{tasks.InputModel3D, `{"asset":"a3"}`, []string{"a3"}},
		{tasks.InputImageList, `[{"asset":"a4"},{"url":"https://example.org/x.png"},{"asset":"a5"}]`, []string{"a4", "a5"}},
		{tasks.InputCandidates, `[{"id":"c1","type":"image","value":{"asset":"a6"}},{"id":"c2","type":"text","value":"words"}]`, []string{"a6"}},
		{tasks.InputText, `"a7"`, nil},
	}
	for _, tc := range cases {
		got := workflow.AssetIDs(tc.typ, json.RawMessage(tc.raw))
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s %s: %v, want %v", tc.typ, tc.raw, got, tc.want)
		}
	}
}
