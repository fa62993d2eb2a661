package releases

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/exports"
)

// errInterrupted ends a release whose job stopped part way (its server was killed or shut
// down) and was then run again: a release never resumes, it fails and a new one is made.
var errInterrupted = errors.New("the job writing this release was interrupted (its server stopped); start a new release")

// Run works one release job. A release that is done or failed is left alone; one found
// running was interrupted and ends failed. Whatever goes wrong while the files are written
// ends the release failed with the error, its blobs removed and no file listed; Run then
// returns nil, so the job is not retried: retrying a release makes a new one.
func (s *Service) Run(ctx context.Context, id string) error {
	r, err := s.store.Release(ctx, "", id)
	if err != nil {
		return err
	}
	switch r.Status {
	case flow.ReleaseDone, flow.ReleaseFailed:
		return nil
	case flow.ReleaseRunning:
		// note: the files the interrupted run wrote stay in the blob store, unlisted and never
		// served; the release's key prefix holds them
		return s.fail(ctx, r, errInterrupted)
	}
	if err := s.run(ctx, r); err != nil {
		return s.fail(ctx, r, err)
	}
	return nil
}

// fail records the error of a release. Only when that write fails does the job fail, so that
// the queue runs it again and the next run ends the release failed.
func (s *Service) fail(ctx context.Context, r *store.Release, cause error) error {
	msg := cause.Error()
	if errors.Is(cause, context.Canceled) {
		msg = errInterrupted.Error()
	}
	s.log.Warn("release failed", "release", r.ID, "project", r.ProjectID, "err", cause)
	return s.store.FailRelease(context.WithoutCancel(ctx), r.ID, msg)
}

// run writes a release's files and marks it done with them.
func (s *Service) run(ctx context.Context, r *store.Release) error {
	fp, spec, err := s.load(ctx, r)
	if err != nil {
		return err
	}
	stages := stagesOf(spec)
	total, err := s.store.CountItemsInStages(ctx, fp.ID, stages)
	if err != nil {
		return err
	}
	if ok, err := s.store.StartRelease(ctx, r.ID, total); err != nil || !ok {
		return err
	}
	rel, err := s.header(ctx, fp, r)
	if err != nil {
		return err
	}
	defer limitMemory()()
	sink := newBlobSink(ctx, s.blobs, keyPrefix(fp.ID, r.ID))
	med := s.newMedia(r, spec, sink)
	job := exports.Job{Release: rel, Spec: spec, Sink: sink, ProgressEvery: max(1000, total/200),
		Progress:   func(n int64) { s.store.ReleaseProgress(ctx, r.ID, n) }, // note: progress is best effort
		ExtraFiles: func() []exports.FileEntry { return med.files }}
	m, err := exports.Export(ctx, job, s.records(ctx, fp, stages, med))
	if err == nil {
		err = s.complete(ctx, r, m, sink)
	}
	if err != nil {
		sink.remove(context.WithoutCancel(ctx)) // note: best effort; a leftover is never listed
		return err
	}
	return nil
}

// load reads the project at the release's schema version and parses the release's request.
func (s *Service) load(ctx context.Context, r *store.Release) (*workflow.Project, *exports.Spec, error) {
	p, err := s.store.Project(ctx, r.ProjectID)
	if err != nil {
		return nil, nil, err
	}
	fp, err := s.flow.LoadProject(ctx, p, r.SchemaVersion)
	if err != nil {
		return nil, nil, err
	}
	v := view(r, false)
	spec, err := parseSpec(fp.Schema, v.Formats, v.Options)
	return fp, spec, err
}

// complete lists every file the manifest names (and manifest.json itself) with what the blob
// store holds, and marks the release done in the same transaction.
func (s *Service) complete(ctx context.Context, r *store.Release, m *exports.Manifest, sink *blobSink) error {
	files := make([]store.ReleaseFile, 0, len(m.Files)+1)
	for _, f := range append(m.Files, exports.FileEntry{Path: "manifest.json", Format: "release"}) {
		w, ok := sink.stored(f.Path)
		if !ok || (f.SHA256 != "" && (w.SHA256 != f.SHA256 || w.Bytes != f.Bytes)) {
			return fmt.Errorf("release file %s was not stored as the manifest lists it", f.Path)
		}
		files = append(files, store.ReleaseFile{Path: f.Path, Format: f.Format, Bytes: w.Bytes, SHA256: w.SHA256,
			Records: f.Records, ContentType: w.ContentType, BlobKey: w.Key})
	}
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return s.store.CompleteRelease(ctx, r.ID, m.Records.Total, b, files)
}
