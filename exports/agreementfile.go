package exports

import (
	"encoding/json"

	"github.com/arbiter-annotation/arbiter/agreement"
)

// agreementFile is the shape of agreement.json.
type agreementFile struct {
	SchemaVersion int                 `json:"schema_version"`
	Questions     []questionAgreement `json:"questions"`
}

// questionAgreement is one question of agreement.json: the project figure
// from the release header and the mean per-item agreement of the records
// exported.
type questionAgreement struct {
	Question string              `json:"question"`
	Label    string              `json:"label"`
	Kind     string              `json:"kind"`
	Level    string              `json:"level"`
	Metric   string              `json:"metric,omitempty"`
	Value    *agreement.Estimate `json:"value,omitempty"`
	CI95     *agreement.CI       `json:"ci95,omitempty"`
	Units    int                 `json:"units,omitempty"`
	Raters   int                 `json:"raters,omitempty"`
	// MeanItemAgreement is the mean share of agreeing label pairs over the
	// exported items with two or more labels answering the question.
	MeanItemAgreement *float64          `json:"mean_item_agreement"`
	Items             int64             `json:"items"`
	Report            *agreement.Report `json:"report,omitempty"`
}

// agreementRows merges the header's figures with the streamed per-item
// means, one row per question that is not free text, in schema order.
func (x *exporter) agreementRows() []questionAgreement {
	byKey := map[string]QuestionAgreement{}
	for _, qa := range x.job.Release.Figures.Agreement {
		byKey[qa.Question] = qa
	}
	var out []questionAgreement
	for _, q := range x.job.Release.Schema.Questions {
		level := string(q.MeasurementLevel())
		if level == "none" {
			continue
		}
		row := questionAgreement{Question: q.Key, Label: q.Label, Kind: string(q.Kind), Level: level}
		if qa, ok := byKey[q.Key]; ok {
			v := qa.Value
			row.Metric, row.Value, row.CI95 = qa.Metric, &v, qa.CI
			row.Units, row.Raters, row.Report = qa.Units, qa.Raters, qa.Report
			if qa.Level != "" {
				row.Level = qa.Level
			}
		}
		if a := x.agree[q.Key]; a != nil && a.n > 0 {
			m := round4(a.sum / float64(a.n))
			row.MeanItemAgreement, row.Items = &m, a.n
		}
		out = append(out, row)
	}
	return out
}

// writeAgreement writes agreement.json.
func (x *exporter) writeAgreement() error {
	f, err := x.files.create("agreement.json", "release")
	if err != nil {
		return err
	}
	doc := agreementFile{SchemaVersion: x.job.Release.Schema.Version, Questions: x.agreementRows()}
	if doc.Questions == nil {
		doc.Questions = []questionAgreement{}
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	f.Write(append(b, '\n'))
	return f.Close()
}
