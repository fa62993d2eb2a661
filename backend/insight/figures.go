package insight

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

// FiguresState says whether derived figures are current: status ready, or computing while a
// job refreshes them (the figures answered are then the last ones kept, if any).
type FiguresState struct {
	Status     string     `json:"status"`
	ComputedAt *time.Time `json:"computed_at"`
}

// cachedFigures reads the kept figures of a kind into v, following the agreement figures'
// rule: figures whose data key (schema version and store.FiguresKey) differs from the
// current one are answered with status computing while a job refreshes them; a server without
// a job queue computes them at once. It reports whether any figures were read.
func (s *Service) cachedFigures(ctx context.Context, p *workflow.Project, kind flow.FiguresKind, params string, v any) (FiguresState, bool, error) {
	row, err := s.currentFigures(ctx, p, kind, params)
	st := FiguresState{Status: AgreementReady}
	if row == nil || err != nil {
		st.Status = AgreementComputing
		return st, false, err
	}
	if !row.fresh {
		st.Status = AgreementComputing
	}
	if row.ComputedAt == nil {
		return st, false, nil
	}
	st.ComputedAt = row.ComputedAt
	if err := json.Unmarshal(row.Result, v); err != nil {
		return st, false, fmt.Errorf("%s figures of project %s: %w", kind, p.ID, err)
	}
	return st, true, nil
}

// figuresRow is a kept row and whether its data key is current.
type figuresRow struct {
	*store.FiguresResult
	fresh bool
}

// currentFigures returns the kept figures of a kind (nil when none), queueing a refresh when
// they are not current, or computing them at once without a job queue.
func (s *Service) currentFigures(ctx context.Context, p *workflow.Project, kind flow.FiguresKind, params string) (*figuresRow, error) {
	name := figuresName(kind, params)
	key, err := s.figuresKey(ctx, p)
	if err != nil {
		return nil, err
	}
	row, err := s.store.FiguresResult(ctx, p.ID, name)
	if errors.Is(err, store.ErrNotFound) {
		row, err = nil, nil
	}
	if err != nil {
		return nil, err
	}
	if row != nil && row.ComputedAt != nil && row.DataKey == key {
		return &figuresRow{row, true}, nil
	}
	if s.jobs == nil {
		if err := s.RunFigures(ctx, p.ID, kind, params); err != nil {
			return nil, err
		}
		row, err = s.store.FiguresResult(ctx, p.ID, name)
		if err != nil {
			return nil, err
		}
		return &figuresRow{row, true}, nil
	}
	t := s.now()
	err = s.store.WithTx(ctx, func(tx *store.Store) error {
		queue, err := tx.RequestFigures(ctx, p.ID, name, t, t.Add(-agreementRequestTimeout))
		if err != nil || !queue {
			return err
		}
		return s.jobs.EnqueueFigures(ctx, tx, p.ID, kind, params)
	})
	if err != nil || row == nil {
		return nil, err
	}
	return &figuresRow{row, false}, nil
}

// figuresName is the kept row's name: the kind, and the options the figures were asked with.
func figuresName(kind flow.FiguresKind, params string) string {
	if params == "" {
		return string(kind)
	}
	return string(kind) + "?" + params
}

func (s *Service) figuresKey(ctx context.Context, p *workflow.Project) (string, error) {
	k, err := s.store.FiguresKey(ctx, p.ID)
	return fmt.Sprintf("schema=%d %s", p.SchemaVersion, k), err
}

// RunFigures computes and keeps a project's derived figures of a kind (the job's work). The key
// is read before the data, so a change that arrives meanwhile makes the figures stale.
func (s *Service) RunFigures(ctx context.Context, projectID string, kind flow.FiguresKind, params string) error {
	p, err := s.jobProject(ctx, projectID)
	if err != nil || p == nil {
		return err
	}
	key, err := s.figuresKey(ctx, p)
	if err != nil {
		return err
	}
	var v any
	switch kind {
	case flow.FiguresBalance:
		v, err = s.computeBalance(ctx, p)
	case flow.FiguresReport:
		v, err = s.computeReport(ctx, p)
	case flow.FiguresJudges:
		v, err = s.computeJudges(ctx, p, ParseJudgeOptions(params))
	case flow.FiguresReliability:
		v, err = s.computeReliability(ctx, p)
	default:
		return fmt.Errorf("unknown figures kind %q", kind)
	}
	if err != nil {
		return err
	}
	t := s.now()
	return s.store.PutFiguresResult(ctx, &store.FiguresResult{ProjectID: p.ID, Kind: figuresName(kind, params), DataKey: key, Result: workflow.Encode(v), ComputedAt: &t})
}

// jobProject loads a project at its current version for a background job; nil when the
// project was deleted meanwhile or has no schema, so the job has nothing to do.
func (s *Service) jobProject(ctx context.Context, projectID string) (*workflow.Project, error) {
	sp, err := s.store.Project(ctx, projectID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	p, err := s.wf.LoadProject(ctx, sp, 0)
	if errors.Is(err, workflow.ErrNoSchema) {
		return nil, nil
	}
	return p, err
}
