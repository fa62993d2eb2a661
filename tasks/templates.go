package tasks

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"mime"
	"path"
	"slices"
	"strings"
	"sync"
)

//go:embed templates/*.yaml templates/media
var templateFiles embed.FS

// Template is a built-in task template: a ready-made schema for one
// benchmark, its guidelines, and sample items whose media ship with it.
type Template struct {
	// ID is stable, e.g. "d3omni-t2i".
	ID string `json:"id"`
	// Name is the display name.
	Name string `json:"name"`
	// Description says in a sentence or two what the template is for.
	Description string `json:"description"`
	// Guidelines is the annotator guideline text (Markdown).
	Guidelines string `json:"guidelines"`
	// Source cites the benchmark the template follows.
	Source string `json:"source,omitempty"`
	// Schema is the labelling form.
	Schema Schema `json:"schema"`
	// Forms are further forms of the same benchmark, run as their own stage
	// (e.g. Omni-Reward's criteria authoring before preference labelling).
	Forms []Form `json:"forms,omitempty"`
	// Workflow is the policy the benchmark's paper ran, as a JSON object of
	// the workflow policy's fields: a project made from the template with no
	// policy of its own starts from it; absent, the server's defaults.
	Workflow json.RawMessage `json:"workflow,omitempty"`
	// Samples are example items. Media paths are relative ("media/x.png")
	// and are read with SampleMedia.
	Samples []Item `json:"samples"`
}

// Form is an extra form of a template, with its own schema.
type Form struct {
	Key         string `json:"key"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Schema      Schema `json:"schema"`
	Samples     []Item `json:"samples,omitempty"`
}

// QuestionCount returns the number of questions of the main schema.
func (t Template) QuestionCount() int { return len(t.Schema.Questions) }

// Form returns the extra form with the given key.
func (t Template) Form(key string) (Form, bool) {
	for _, f := range t.Forms {
		if f.Key == key {
			return f, true
		}
	}
	return Form{}, false
}

// SampleMedia returns the bytes and content type of a sample media file
// referenced by a template's samples, e.g. "media/apple.png".
func (t Template) SampleMedia(p string) ([]byte, string, error) {
	return readSampleMedia(p)
}

// SampleMediaFS returns the sample media as a read-only file system whose
// paths are the ones samples use ("media/apple.png").
func SampleMediaFS() fs.FS {
	sub, err := fs.Sub(templateFiles, "templates")
	if err != nil { // cannot happen: the directory is embedded
		panic(err)
	}
	return mediaOnly{sub}
}

// mediaOnly restricts an FS to the media directory.
type mediaOnly struct{ fs.FS }

func (m mediaOnly) Open(name string) (fs.File, error) {
	if name != "media" && !strings.HasPrefix(name, "media/") {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return m.FS.Open(name)
}

func readSampleMedia(p string) ([]byte, string, error) {
	clean := path.Clean(strings.TrimPrefix(p, "/"))
	if !strings.HasPrefix(clean, "media/") || !fs.ValidPath(clean) {
		return nil, "", fmt.Errorf("tasks: sample media %q: %w", p, fs.ErrNotExist)
	}
	b, err := fs.ReadFile(templateFiles, "templates/"+clean)
	if err != nil {
		return nil, "", fmt.Errorf("tasks: sample media %q: %w", p, fs.ErrNotExist)
	}
	return b, contentType(clean), nil
}

// contentType maps a media file extension to its MIME type.
func contentType(p string) string {
	switch path.Ext(p) {
	case ".glb":
		return "model/gltf-binary"
	case ".wav":
		return "audio/wav"
	case ".mp4":
		return "video/mp4"
	}
	if t := mime.TypeByExtension(path.Ext(p)); t != "" {
		return t
	}
	return "application/octet-stream"
}

// loadTemplates reads every embedded template once, as JSON documents; each
// call to Templates decodes fresh copies so callers may modify them.
var loadTemplates = sync.OnceValues(func() ([][]byte, error) {
	names, err := fs.Glob(templateFiles, "templates/*.yaml")
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	docs := make([][]byte, 0, len(names))
	for _, n := range names {
		b, err := templateFiles.ReadFile(n)
		if err != nil {
			return nil, err
		}
		js, err := yamlToJSON(bytes.NewReader(b))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		docs = append(docs, js)
	}
	return docs, nil
})

// decodeTemplate reads one template document strictly.
func decodeTemplate(js []byte) (Template, error) {
	var t Template
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	err := dec.Decode(&t)
	return t, err
}

// Templates returns every built-in template, sorted by id. The embedded
// files are checked by the package tests, so a broken one panics here.
func Templates() []Template {
	docs, err := loadTemplates()
	if err != nil {
		panic("tasks: embedded templates: " + err.Error())
	}
	out := make([]Template, 0, len(docs))
	for _, js := range docs {
		t, err := decodeTemplate(js)
		if err != nil {
			panic("tasks: embedded template: " + err.Error())
		}
		out = append(out, t)
		if id, ok := rubricVariants[t.ID]; ok {
			v, _ := decodeTemplate(js) // note: a fresh copy, so the variant shares no slices
			out = append(out, byRubric(v, id))
		}
	}
	slices.SortFunc(out, func(a, b Template) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// LookupTemplate returns the built-in template with the given id.
func LookupTemplate(id string) (Template, bool) {
	for _, t := range Templates() {
		if t.ID == id {
			return t, true
		}
	}
	return Template{}, false
}
