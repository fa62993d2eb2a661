package exports

import (
	"github.com/parquet-go/parquet-go"

	"github.com/arbiter-annotation/arbiter/tasks"
)

// The parquet schema of the hf format mirrors the canonical JSON record
// with typed columns:
//
//	id, external_id, split, status   string
//	language                         string, null when the item has none
//	inputs                           struct, one field per input: text,
//	                                 markdown and media as string (path or
//	                                 URL), json as JSON text, image_list as
//	                                 list<string>, candidates as
//	                                 list<struct{id, type, value, values, meta}>
//	meta                             string (JSON text: keys vary by item)
//	answers                          struct, one field per question, as
//	                                 answered (likert with N/A as string)
//	normalized                       struct, one field per question, as
//	                                 analysed (binary bool, likert int64)
//	provenance                       struct{kind, adjudicator, rationale,
//	                                 confidence, revision}
//	agreement                        struct{labels, percent_agreement,
//	                                 questions struct}
//	drop_reason                      string
//	labels, reviews (option raw)     list<struct>
//
// Every field that can be missing is optional (null).

func optString() parquet.Node { return parquet.Optional(parquet.String()) }
func optInt() parquet.Node    { return parquet.Optional(parquet.Int(64)) }
func optDouble() parquet.Node { return parquet.Optional(parquet.Leaf(parquet.DoubleType)) }
func optBool() parquet.Node   { return parquet.Optional(parquet.Leaf(parquet.BooleanType)) }
func stringList() parquet.Node {
	return parquet.List(parquet.String())
}

// hfSchema builds the parquet schema of a task schema.
func hfSchema(s *tasks.Schema, raw bool) *parquet.Schema {
	root := parquet.Group{
		"id": parquet.String(), "external_id": parquet.String(),
		"split": parquet.String(), "status": parquet.String(),
		"language":    optString(),
		"meta":        parquet.String(),
		"answers":     answersGroup(s, false),
		"normalized":  answersGroup(s, true),
		"provenance":  parquet.Optional(provenanceGroup()),
		"agreement":   parquet.Optional(agreementGroup(s)),
		"drop_reason": optString(),
	}
	if len(s.Inputs) > 0 {
		root["inputs"] = inputsGroup(s)
	}
	if raw {
		root["labels"] = parquet.List(parquet.Group{"annotator": parquet.String(), "role": parquet.String(),
			"answers": answersGroup(s, false), "review": optString()})
		root["reviews"] = parquet.List(parquet.Group{
			"reviewer": parquet.String(), "role": parquet.String(), "annotator": parquet.String(), "verdict": parquet.String(),
			"comment":  optString(),
			"comments": parquet.List(parquet.Group{"question": parquet.String(), "comment": parquet.String()}),
			"answers":  parquet.Optional(answersGroup(s, false)),
		})
	}
	return parquet.NewSchema("record", root)
}

// inputsGroup has one optional field per input.
func inputsGroup(s *tasks.Schema) parquet.Group {
	g := parquet.Group{}
	for _, in := range s.Inputs {
		switch in.Type {
		case tasks.InputCandidates:
			g[in.Name] = parquet.Optional(parquet.List(parquet.Group{
				"id": parquet.String(), "type": parquet.String(),
				"value": optString(), "values": stringList(), "meta": optString(),
			}))
		case tasks.InputImageList:
			g[in.Name] = parquet.Optional(stringList())
		default:
			g[in.Name] = optString()
		}
	}
	return g
}

// answersGroup has one optional field per question, typed by kind.
func answersGroup(s *tasks.Schema, normalized bool) parquet.Group {
	g := parquet.Group{}
	for _, q := range s.Questions {
		g[q.Key] = answerNode(q, normalized)
	}
	return g
}

// answerNode is the optional parquet node of a question's answer, of the
// type its kind gives it (tasks.QuestionKind.Feature).
func answerNode(q tasks.Question, normalized bool) parquet.Node {
	f := tasks.KindOf(q).Feature(normalized)
	switch f.Type {
	case tasks.FeatureBool:
		return optBool()
	case tasks.FeatureInt64:
		return optInt()
	case tasks.FeatureStringList:
		return parquet.Optional(stringList())
	case tasks.FeatureIntStruct:
		fields := parquet.Group{}
		for _, name := range f.Fields {
			fields[name] = optInt()
		}
		return parquet.Optional(fields)
	}
	return optString()
}

func provenanceGroup() parquet.Group {
	return parquet.Group{
		"kind": parquet.String(), "adjudicator": optString(), "rationale": optString(),
		"confidence": optDouble(), "revision": parquet.Int(64),
	}
}

func agreementGroup(s *tasks.Schema) parquet.Group {
	g := parquet.Group{"labels": parquet.Int(64), "percent_agreement": optDouble()}
	qs := parquet.Group{}
	for _, q := range s.Questions {
		if q.MeasurementLevel() != tasks.LevelNone {
			qs[q.Key] = optDouble()
		}
	}
	if len(qs) > 0 {
		g["questions"] = qs
	}
	return g
}
