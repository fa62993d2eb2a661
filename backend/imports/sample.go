package imports

import (
	"encoding/json"
	"fmt"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// Sample is what an items import of a project takes, made from its schema: the inputs and
// metadata a line has and example lines that import as they are.
type Sample struct {
	// Pool is "calibration" for the calibration pool, "production" for production items.
	Pool string `json:"pool"`
	// Inputs are the inputs a line's inputs are checked against: the first stage's for
	// production items, the labeling form's for the pool.
	Inputs []tasks.Input `json:"inputs"`
	// Meta are the declared keys of a line's meta.
	Meta []tasks.MetaField `json:"meta"`
	// Lines are example lines; a pool line has a gold answer to every question.
	Lines []ItemLine `json:"lines"`
}

// sampleLines is how many example lines a sample has.
const sampleLines = 2

// SampleOf is the import format of the project's production items, or of its calibration
// pool when pool is true.
func SampleOf(p *workflow.Project, pool bool) *Sample {
	schema := p.StageSchema(p.FirstStage())
	out := &Sample{Pool: "production", Lines: make([]ItemLine, 0, sampleLines)}
	if pool {
		schema, out.Pool = p.Schema, string(flow.StageCalibration) // note: pool items are answered with the labeling form
	}
	out.Inputs, out.Meta = schema.Inputs, schema.Meta
	if out.Inputs == nil {
		out.Inputs = []tasks.Input{}
	}
	if out.Meta == nil {
		out.Meta = []tasks.MetaField{}
	}
	for n := 1; n <= sampleLines; n++ {
		line := ItemLine{ExternalID: fmt.Sprintf("example-%d", n), Inputs: map[string]json.RawMessage{}}
		for _, in := range schema.Inputs {
			line.Inputs[in.Name] = marshal(exampleInput(in, n))
		}
		for _, m := range schema.Meta {
			if line.Meta == nil {
				line.Meta = map[string]json.RawMessage{}
			}
			line.Meta[m.Key] = marshal(exampleMeta(m, n))
		}
		if pool {
			line.GroundTruth = &ImportedTruth{Answers: schema.ExampleAnswers()}
		}
		out.Lines = append(out.Lines, line)
	}
	return out
}

func marshal(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

// mediaExtension is the file extension of an example of each medium.
var mediaExtension = map[tasks.InputType]string{
	tasks.InputImage: "png", tasks.InputVideo: "mp4", tasks.InputAudio: "wav", tasks.InputModel3D: "glb",
}

// exampleInput is a value of the input's type for the n-th example line: text names the
// input, media are URLs (or, in an import with a media archive, paths of its files).
func exampleInput(in tasks.Input, n int) any {
	switch in.Type {
	case tasks.InputText, tasks.InputMarkdown:
		return fmt.Sprintf("The %s of item %d", label(in), n)
	case tasks.InputJSON:
		return map[string]any{"example": n}
	case tasks.InputImageList:
		return []string{exampleURL(in.Name+"-a", "png", n), exampleURL(in.Name+"-b", "png", n)}
	case tasks.InputCandidates:
		count := max(in.Count, 1)
		if in.Count == 0 {
			count = 2
		}
		cs := make([]map[string]any, count)
		for i := range cs {
			cs[i] = map[string]any{"id": fmt.Sprintf("item%d-output%d", n, i+1), "type": tasks.InputText, "value": fmt.Sprintf("Output %d of item %d", i+1, n)}
		}
		return cs
	}
	return exampleURL(in.Name, mediaExtension[in.Type], n)
}

func exampleURL(name, ext string, n int) string {
	return fmt.Sprintf("https://example.org/media/%s-%d.%s", name, n, ext)
}

func label(in tasks.Input) string {
	if in.Label != "" {
		return in.Label
	}
	return in.Name
}

// exampleMeta is a value of the declared metadata: one of its options in turn, or a string.
func exampleMeta(m tasks.MetaField, n int) any {
	if len(m.Options) > 0 {
		return m.Options[(n-1)%len(m.Options)]
	}
	return fmt.Sprintf("%s-%d", m.Key, n)
}
