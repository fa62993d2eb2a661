package exports

import (
	"encoding/json"
	"errors"
	"slices"

	"github.com/arbiter-annotation/arbiter/tasks"
)

// preparer turns records into entries. It keeps caches (pseudonyms, decoded
// answers) that are pure memos, so each goroutine that prepares records has
// its own and the entries do not depend on which one prepared them.
type preparer struct {
	rel     *Release
	spec    *Spec
	pseudo  *pseudonyms
	decoder *decoder
}

func newPreparer(rel *Release, spec *Spec) *preparer {
	return &preparer{rel: rel, spec: spec, pseudo: newPseudonyms(rel.Salt), decoder: newDecoder(&rel.Schema)}
}

// prepare turns a streamed record into an entry: canonical JSON, split,
// pseudonyms, decoded answers and per-item agreement.
func (x *preparer) prepare(rec *Record) (*entry, error) {
	schema := &x.rel.Schema
	x.pseudonymise(rec)
	if err := canonRecord(rec, x.spec.Raw); err != nil {
		return nil, err
	}
	if rec.Language != "" {
		if c, err := tasks.CanonicalLanguage(rec.Language); err != nil || c != rec.Language {
			return nil, recordErr(rec.ID, rec.ExternalID, "language", tasks.CodeInvalidLanguage, "%q is not a canonical BCP 47 tag (%q)", rec.Language, c)
		}
	}
	split, err := x.spec.Split.assign(rec.ID, rec.ExternalID, rec.Meta)
	if err != nil {
		return nil, err
	}
	rec.Split = split
	cands, name, err := decodeCandidates(schema, rec.Inputs)
	if err != nil {
		return nil, recordErr(rec.ID, rec.ExternalID, "inputs."+name, tasks.CodeInvalidType, "expected a list of candidates {id, type, value}: %v", err)
	}
	e := &entry{Record: rec, cands: cands, metaJSON: jsonText(nonNil(rec.Meta))}
	if rec.Status == StatusDone {
		if err := checkProvenance(rec); err != nil {
			return nil, err
		}
		ans, norm, missing, key, err := x.decoder.decode(rec.Answers)
		if err != nil {
			return nil, recordErr(rec.ID, rec.ExternalID, "answers."+key, CodeInvalidAnswer, "%v", err)
		}
		e.answered, e.normalized, e.missing = ans, norm, missing
		if key, err := checkTexts(schema, rec.Texts); err != nil {
			return nil, recordErr(rec.ID, rec.ExternalID, "texts."+key, tasks.CodeUnknownQuestion, "%v", err)
		}
	} else {
		rec.Answers, rec.Provenance, rec.Texts = nil, Provenance{}, nil
	}
	if rec.Agreement == nil {
		rec.Agreement = x.decoder.itemAgreement(countedLabels(rec.Labels, rec.Reviews))
	}
	return e, nil
}

// canonRecord re-encodes the raw JSON values a writer copies (inputs, meta,
// and the answers of labels and reviews when they are written) canonically.
// Ground-truth answers are decoded instead, and written from their values.
func canonRecord(rec *Record, raw bool) error {
	fail := func(field, key string, err error) error {
		return recordErr(rec.ID, rec.ExternalID, field+"."+key, tasks.CodeInvalidSyntax, "not valid JSON: %v", err)
	}
	var err error
	var key string
	if rec.Inputs, key, err = canonMap(rec.Inputs); err != nil {
		return fail("inputs", key, err)
	}
	if rec.Meta, key, err = canonMap(rec.Meta); err != nil {
		return fail("meta", key, err)
	}
	if !raw {
		return nil
	}
	for i := range rec.Labels {
		if rec.Labels[i].Answers, key, err = canonAnswers(rec.Labels[i].Answers); err != nil {
			return fail("labels", key, err)
		}
	}
	for i := range rec.Reviews {
		if rec.Reviews[i].Answers, key, err = canonAnswers(rec.Reviews[i].Answers); err != nil {
			return fail("reviews", key, err)
		}
	}
	return nil
}

func canonAnswers(a tasks.Answers) (tasks.Answers, string, error) {
	m, key, err := canonMap(map[string]json.RawMessage(a))
	return tasks.Answers(m), key, err
}

// checkProvenance requires a known provenance kind on ground truth.
func checkProvenance(rec *Record) error {
	p := rec.Provenance
	if !slices.Contains(ProvenanceKinds, p.Kind) {
		return recordErr(rec.ID, rec.ExternalID, "provenance.kind", tasks.CodeInvalidValue,
			"provenance %q is not one of %v", p.Kind, ProvenanceKinds)
	}
	if p.Confidence != nil && (*p.Confidence < 0 || *p.Confidence > 1) {
		return recordErr(rec.ID, rec.ExternalID, "provenance.confidence", tasks.CodeOutOfRange,
			"confidence %g is outside [0, 1]", *p.Confidence)
	}
	return nil
}

// pseudonymise replaces every user id of a record with its pseudonym and
// names the role of each label and review. Labels, reviews and skips are
// copied first: the caller's slices are not changed.
func (x *preparer) pseudonymise(rec *Record) {
	p := x.pseudo
	rec.Provenance.Adjudicator = p.of(rec.Provenance.Adjudicator)
	rec.Labels = slices.Clone(rec.Labels)
	for i := range rec.Labels {
		l := &rec.Labels[i]
		l.Annotator, l.Role = p.of(l.Annotator), RoleAnnotator
	}
	rec.Reviews = slices.Clone(rec.Reviews)
	for i := range rec.Reviews {
		r := &rec.Reviews[i]
		r.Reviewer, r.Annotator, r.Role = p.of(r.Reviewer), p.of(r.Annotator), RoleReviewer
	}
	rec.Skips = slices.Clone(rec.Skips)
	for i := range rec.Skips {
		rec.Skips[i].Person = p.of(rec.Skips[i].Person)
	}
	rec.Refinements = slices.Clone(rec.Refinements)
	for i := range rec.Refinements {
		rec.Refinements[i].By = p.of(rec.Refinements[i].By)
	}
	if rec.Texts != nil {
		texts := make(map[string][]TextAnswer, len(rec.Texts))
		for key, ts := range rec.Texts {
			ts = slices.Clone(ts)
			for i := range ts {
				ts[i].Author = p.of(ts[i].Author)
			}
			texts[key] = ts
		}
		rec.Texts = texts
	}
}

// checkTexts requires the kept free-text answers to belong to text questions.
func checkTexts(s *tasks.Schema, texts map[string][]TextAnswer) (string, error) {
	for key := range texts {
		if q, ok := s.Question(key); !ok || q.Kind != tasks.KindText {
			return key, errors.New(key + " is not a text question of this schema")
		}
	}
	return "", nil
}
