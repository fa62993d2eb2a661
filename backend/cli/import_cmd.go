package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/backend/imports"
)

// runImport streams an NDJSON items file to a server, uploading referenced media first.
func runImport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("arbiter import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	server := fs.String("server", "http://127.0.0.1:8080", "server base URL")
	project := fs.String("project", "", "project id")
	itemsPath := fs.String("items", "", "NDJSON file of items, one {external_id, inputs, meta} per line")
	media := fs.String("media", "", "directory holding media files that items reference by relative path")
	token := fs.String("token", os.Getenv("ARBITER_TOKEN"), "personal access token (ARBITER_TOKEN)")
	predictions := fs.Bool("predictions", false, "the file holds model predictions {external_id, model, answers}")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *project == "" || *itemsPath == "" || *token == "" {
		fs.Usage()
		return errors.New("--project, --items and a token (--token or ARBITER_TOKEN) are required")
	}
	f, err := os.Open(*itemsPath)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	up := &uploader{base: strings.TrimRight(*server, "/"), project: *project, token: *token, assets: map[string]string{}}
	if *media != "" {
		// note: files are opened through a root, so no path or symbolic link leads out of it
		if up.media, err = os.OpenRoot(*media); err != nil {
			return err
		}
		defer up.media.Close()
	}
	bar := newProgress(stderr, st.Size(), f)
	endpoint := "/items"
	if *predictions {
		endpoint = "/predictions"
	}
	stop := bar.start()
	body, err := up.spool(up.rewrite(ctx, bar.read))
	if err != nil {
		stop()
		return err
	}
	defer body.Close()
	rep, err := up.post(ctx, endpoint, body)
	stop()
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, string(rep))
	var r struct{ Errors []json.RawMessage }
	json.Unmarshal(rep, &r)
	if len(r.Errors) > 0 {
		return fmt.Errorf("%d lines were refused (see errors above); the others were imported", len(r.Errors))
	}
	return nil
}

// uploader talks to one project of a server.
type uploader struct {
	base, project, token string
	media                *os.Root          // the media directory; nil without one
	assets               map[string]string // relative path → asset id
	uploaded             atomic.Int64
}

// spool writes the rewritten items to a temporary file, so that every referenced file is
// uploaded before the items are sent: the server drops a request whose body stalls (while a
// large file uploads, say). Without a media folder the items stream through as they are read.
func (u *uploader) spool(r io.Reader) (io.ReadCloser, error) {
	if u.media == nil {
		return io.NopCloser(r), nil
	}
	f, err := os.CreateTemp("", "arbiter-import-*.ndjson")
	if err != nil {
		return nil, err
	}
	sf := &spooled{f}
	if _, err := io.Copy(f, r); err != nil {
		sf.Close()
		return nil, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		sf.Close()
		return nil, err
	}
	return sf, nil
}

// spooled is a temporary file removed when closed.
type spooled struct{ *os.File }

func (s *spooled) Close() error {
	s.File.Close()
	return os.Remove(s.Name())
}

// rewrite returns the items stream with media paths replaced by uploaded asset ids. Lines
// the uploader cannot parse pass through unchanged, so the server reports them by number.
func (u *uploader) rewrite(ctx context.Context, r io.Reader) io.Reader {
	if u.media == nil {
		return r
	}
	pr, pw := io.Pipe()
	go func() {
		br := bufio.NewReaderSize(r, 1<<20)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				out, rerr := u.rewriteLine(ctx, line)
				if rerr != nil {
					pw.CloseWithError(rerr)
					return
				}
				if _, werr := pw.Write(out); werr != nil {
					return
				}
			}
			if err != nil {
				pw.CloseWithError(ignoreEOF(err))
				return
			}
		}
	}()
	return pr
}

func ignoreEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

func (u *uploader) rewriteLine(ctx context.Context, line []byte) ([]byte, error) {
	var obj map[string]any
	if json.Unmarshal(line, &obj) != nil {
		return line, nil
	}
	inputs, ok := obj["inputs"].(map[string]any)
	if !ok {
		return line, nil
	}
	changed := false
	for k, v := range inputs {
		nv, c, err := imports.ReplaceMediaPaths(ctx, v, u.resolve)
		if err != nil {
			return nil, err
		}
		inputs[k], changed = nv, changed || c
	}
	if !changed {
		return line, nil
	}
	out, err := json.Marshal(obj)
	return append(out, '\n'), err
}

// resolve is the media resolver of the shared walker: a path naming a file of the media
// directory becomes that file's asset.
func (u *uploader) resolve(ctx context.Context, rel string) (string, bool, error) {
	id, err := u.assetFor(ctx, rel)
	return id, id != "", err
}

// assetFor uploads the file at rel (once) and returns its asset id; "" if rel is no file.
func (u *uploader) assetFor(ctx context.Context, rel string) (string, error) {
	if id, ok := u.assets[rel]; ok {
		return id, nil
	}
	if rel == "" || filepath.IsAbs(rel) || strings.Contains(rel, "..") || len(rel) > 1024 {
		return "", nil
	}
	path := filepath.FromSlash(rel)
	if st, err := u.media.Stat(path); err != nil || !st.Mode().IsRegular() {
		return "", nil // note: a link out of the media directory is no file of it
	}
	id, err := u.upload(ctx, path)
	if err != nil {
		return "", fmt.Errorf("upload %s: %w", rel, err)
	}
	u.assets[rel] = id
	u.uploaded.Add(1)
	return id, nil
}

// upload sends the media directory's file at path.
func (u *uploader) upload(ctx context.Context, path string) (string, error) {
	f, err := u.media.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		part, err := mw.CreateFormFile("file", filepath.Base(path))
		if err == nil {
			_, err = io.Copy(part, f)
		}
		if err == nil {
			err = mw.Close()
		}
		pw.CloseWithError(err)
	}()
	out, err := u.request(ctx, "POST", "/assets", mw.FormDataContentType(), pr)
	if err != nil {
		return "", err
	}
	var a struct{ ID string }
	return a.ID, json.Unmarshal(out, &a)
}

func (u *uploader) post(ctx context.Context, endpoint string, body io.Reader) ([]byte, error) {
	return u.request(ctx, "POST", endpoint, "application/x-ndjson", body)
}

func (u *uploader) request(ctx context.Context, method, endpoint, ctype string, body io.Reader) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, u.base+"/api/v1/projects/"+u.project+endpoint, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", ctype)
	req.Header.Set("Authorization", "Bearer "+u.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("%s %s: %s: %s", method, endpoint, resp.Status, bytes.TrimSpace(out))
	}
	return out, nil
}

// progress draws a progress bar of bytes sent on stderr.
type progress struct {
	w     io.Writer
	total int64
	read  *blob.Counter // the bytes sent so far
	began time.Time
	sent  time.Duration // how long sending took, once everything was sent
}

// newProgress counts what is read from r against total.
func newProgress(w io.Writer, total int64, r io.Reader) *progress {
	return &progress{w: w, total: total, read: &blob.Counter{R: r}}
}

// start redraws the bar every 200 ms until everything is sent, then ends its line and says
// the server is at work, so nothing redraws while the server imports; the returned stop
// ends the bar (if it is still drawing) before the caller prints the server's answer.
func (p *progress) start() (stop func()) {
	p.began = time.Now()
	quit := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-quit:
				p.finish()
				return
			case <-t.C:
				if p.read.N() >= p.total {
					p.finish()
					fmt.Fprintln(p.w, "sent; waiting for the server to finish")
					<-quit
					return
				}
				p.draw()
			}
		}
	}()
	return func() { close(quit); <-finished }
}

// finish draws the bar a last time and ends its line.
func (p *progress) finish() {
	p.sent = time.Since(p.began)
	p.draw()
	fmt.Fprintln(p.w)
}

func (p *progress) draw() {
	done := p.read.N()
	frac := 1.0
	if p.total > 0 {
		frac = min(float64(done)/float64(p.total), 1)
	}
	const width = 30
	filled := int(frac * width)
	took := p.sent
	if took == 0 {
		took = time.Since(p.began)
	}
	rate := float64(done) / max(took.Seconds(), 1e-3) / (1 << 20)
	fmt.Fprintf(p.w, "\r[%s%s] %5.1f%%  %s / %s  %.1f MiB/s", strings.Repeat("#", filled), strings.Repeat(".", width-filled),
		frac*100, humanBytes(done), humanBytes(p.total), rate)
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
