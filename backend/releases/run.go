package releases

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	quota "github.com/arbiter-annotation/arbiter/backend/media"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/webhooks"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/exports"
)

// errInterrupted ends a release whose job stopped part way (its server was killed, stopped or
// shut down) and was then run again: a release never resumes, it fails and a new one is made.
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
		err = s.fail(ctx, r, errInterrupted)
	default:
		if err = s.run(ctx, r); err != nil {
			err = s.fail(ctx, r, err)
		}
	}
	return errors.Join(err, s.flow.Webhooks().Notify(context.WithoutCancel(ctx), s.store, webhooks.ReleaseEnded(ctx, s.store, r.ID)))
}

// Interrupted ends a release whose job will not run again (the queue gave up on it after its
// replica stopped) as failed, with whatever it wrote removed.
func (s *Service) Interrupted(ctx context.Context, id string) error {
	r, err := s.store.Release(ctx, "", id)
	if err != nil || r.Status == flow.ReleaseDone || r.Status == flow.ReleaseFailed {
		return err
	}
	return s.fail(ctx, r, errInterrupted)
}

// fail records the error of a release and removes its folder from the blob store: the files
// of this run, or of an earlier run of the job that stopped part way. Only when the error
// cannot be recorded does the job fail, so that the queue runs it again and the next run ends
// the release failed.
func (s *Service) fail(ctx context.Context, r *store.Release, cause error) error {
	ctx = context.WithoutCancel(ctx)
	msg := cause.Error()
	if errors.Is(cause, context.Canceled) {
		msg = errInterrupted.Error()
	}
	s.log.Warn("release failed", "release", r.ID, "project", r.ProjectID, "err", cause)
	if err := s.store.FailRelease(ctx, r.ID, msg); err != nil {
		return err
	}
	// note: a folder that cannot be removed now stays counted toward the quota; its files are
	// never listed nor served
	if err := s.blobs.DeleteFolder(ctx, folder(r.ProjectID, r.ID)); err != nil {
		s.log.Error("the files of a failed release were not removed", "release", r.ID, "err", err)
		return nil
	}
	return s.store.ReleaseFilesRemoved(ctx, r.ID)
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
	sink := newBlobSink(ctx, s.blobs, keyPrefix(fp.ID, r.ID), s.reserver(ctx, r))
	med := s.newMedia(r, spec, sink)
	job := exports.Job{Release: rel, Spec: spec, Sink: sink, ProgressEvery: max(1000, total/200),
		Progress:   func(n int64) { s.store.ReleaseProgress(ctx, r.ID, n) }, // note: progress is best effort
		ExtraFiles: func() []exports.FileEntry { return med.files }}
	m, err := exports.Export(ctx, job, s.records(ctx, fp, stages, med))
	if err == nil {
		err = s.complete(ctx, r, m, sink)
	}
	return err
}

// reserver reserves room in the project's storage quota for n more bytes of the release.
func (s *Service) reserver(ctx context.Context, r *store.Release) func(n int64) error {
	return func(n int64) error {
		return quota.ChargeStorage(ctx, s.store, r.ProjectID, n, func(tx *store.Store) error {
			ok, err := tx.ReserveReleaseBytes(ctx, r.ID, n)
			if err == nil && !ok {
				err = errInterrupted // note: another run of the job ended it
			}
			return err
		})
	}
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
