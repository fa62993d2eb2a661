package imports

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// PredictionLine is one line of a predictions import.
type PredictionLine struct {
	ExternalID string        `json:"external_id"`
	Model      string        `json:"model"`
	Answers    tasks.Answers `json:"answers"`
}

// ImportPredictions reads NDJSON model predictions for existing items. Answers are validated
// question by question; a prediction need not answer everything.
func (s *Service) ImportPredictions(ctx context.Context, p *workflow.Project, actorID string, r io.Reader, progress func(int)) (*ImportReport, error) {
	rep := &ImportReport{Errors: []LineError{}}
	lr := newLineReader(r)
	for done := false; !done; {
		batch, err := readBatch(lr, rep)
		if err != nil && !errors.Is(err, io.EOF) {
			return rep, stopped(rep, err)
		}
		done = errors.Is(err, io.EOF)
		err = s.store.WithTx(ctx, func(tx *store.Store) error {
			for _, l := range batch {
				if err := s.importPrediction(ctx, tx, p, l, rep); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return rep, stopped(rep, err)
		}
		if progress != nil {
			progress(rep.Lines)
		}
	}
	return rep, s.analyzeAfter(ctx, rep, "predictions")
}

func (s *Service) importPrediction(ctx context.Context, tx *store.Store, p *workflow.Project, l rawLine, rep *ImportReport) error {
	var pl PredictionLine
	if err := decodeLine(l.data, &pl); err != nil {
		rep.fail(l.n, lineRefusal(err))
		return nil
	}
	if pl.ExternalID == "" || pl.Model == "" {
		rep.fail(l.n, errors.New("external_id and model are required"))
		return nil
	}
	it, err := tx.ItemByExternalID(ctx, p.ID, pl.ExternalID)
	if errors.Is(err, store.ErrNotFound) {
		rep.fail(l.n, fmt.Errorf("no item with external_id %q", pl.ExternalID))
		return nil
	}
	if err != nil {
		return err
	}
	if err := answerErrors(p.Schema, pl.Answers); err != nil {
		rep.fail(l.n, err)
		return nil
	}
	if err := tx.UpsertPrediction(ctx, &store.Prediction{ItemID: it.ID, Model: pl.Model, ProjectID: p.ID, Answers: workflow.Encode(pl.Answers)}); err != nil {
		return err
	}
	rep.Imported++
	return nil
}

// answerErrors validates the given answers, ignoring questions left unanswered; any error
// that is not about a field refuses the line too.
func answerErrors(schema *tasks.Schema, answers tasks.Answers) error {
	err := schema.ValidateAnswers(answers)
	if err == nil {
		return nil
	}
	var fe tasks.FieldErrors
	if !errors.As(err, &fe) {
		return err
	}
	for k, v := range fe {
		if _, given := answers[k]; !given && v.Code == "required" {
			delete(fe, k)
		}
	}
	return fe.Err()
}
