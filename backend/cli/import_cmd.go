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
	"maps"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/backend/imports"
	mediapkg "github.com/arbiter-annotation/arbiter/backend/media"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// runImport streams an NDJSON items file to a server, uploading referenced media first.
func runImport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("arbiter import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	server := fs.String("server", "http://127.0.0.1:8080", "server base URL")
	project := fs.String("project", "", "project id")
	itemsPath := fs.String("items", "", "NDJSON file of items, one {external_id, inputs, meta} per line")
	media := fs.String("media", "", "directory holding the media files that items' media inputs name by relative path (each must exist)")
	token := fs.String("token", os.Getenv("ARBITER_TOKEN"), "personal access token (ARBITER_TOKEN)")
	predictions := fs.Bool("predictions", false, "the file holds model predictions {external_id, model, answers}")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *project == "" || *itemsPath == "" || *token == "" {
		fs.Usage()
		return errors.New("--project, --items and a token (--token or ARBITER_TOKEN) are required")
	}
	if *predictions && *media != "" {
		return errors.New("--media is for items: predictions name no files")
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
		if up.schema, err = up.projectSchema(ctx); err != nil {
			return err
		}
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
	out, err := up.post(ctx, endpoint, body)
	stop()
	if err != nil {
		return err
	}
	rep, refused := up.report(out)
	fmt.Fprintln(stdout, string(rep))
	if refused > 0 {
		return fmt.Errorf("%d lines were refused (see errors above); the others were imported", refused)
	}
	return nil
}

// uploader talks to one project of a server. With a media folder it is the folder's files
// (imports.MediaFiles) for the shared media walker.
type uploader struct {
	base, project, token string
	media                *os.Root          // the media directory; nil without one
	schema               *tasks.Schema     // the project's schema, read with a media directory
	assets               map[string]string // cleaned relative path → asset id
	uploaded             atomic.Int64
	refused              []imports.LineError // lines refused here, sent as blank lines
}

var _ imports.MediaFiles = (*uploader)(nil)

// projectSchema reads the project's schema: which inputs are media, of which type.
func (u *uploader) projectSchema(ctx context.Context) (*tasks.Schema, error) {
	out, err := u.request(ctx, "GET", "", "", nil)
	if err != nil {
		return nil, err
	}
	var p struct{ Schema *tasks.Schema }
	if err := json.Unmarshal(out, &p); err != nil {
		return nil, fmt.Errorf("read the project: %w", err)
	}
	if p.Schema == nil {
		return nil, errors.New("the project has no schema yet, so no input takes media")
	}
	return p.Schema, nil
}

// report is the server's import report with the lines refused here added in line order, and
// the number of refused lines.
func (u *uploader) report(out []byte) ([]byte, int) {
	var rep imports.ImportReport
	if json.Unmarshal(out, &rep) != nil {
		return out, 0
	}
	if len(u.refused) == 0 {
		return out, len(rep.Errors)
	}
	rep.Errors = append(rep.Errors, u.refused...)
	slices.SortStableFunc(rep.Errors, func(a, b imports.LineError) int { return a.Line - b.Line })
	b, err := json.Marshal(rep)
	if err != nil {
		return out, len(rep.Errors)
	}
	return b, len(rep.Errors)
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

// rewrite returns the items stream with media paths replaced by uploaded asset ids. A line
// with a media path that names no file of the folder, or a file of another medium, is refused
// here with its number and sent as a blank line, so that the server numbers the lines after
// it as the file does and nothing of it is imported. Lines the uploader cannot parse pass
// through unchanged, so the server reports them by number.
func (u *uploader) rewrite(ctx context.Context, r io.Reader) io.Reader {
	if u.media == nil {
		return r
	}
	pr, pw := io.Pipe()
	go func() {
		br := bufio.NewReaderSize(r, 1<<20)
		for n := 1; ; n++ {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				out, rerr := u.rewriteLine(ctx, n, line)
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

// rewriteLine replaces the media paths of line n, or refuses it (a blank line goes instead).
func (u *uploader) rewriteLine(ctx context.Context, n int, line []byte) ([]byte, error) {
	var obj map[string]json.RawMessage
	var inputs map[string]json.RawMessage
	if json.Unmarshal(line, &obj) != nil || json.Unmarshal(obj["inputs"], &inputs) != nil {
		return line, nil
	}
	given := maps.Clone(inputs)
	err := imports.ResolveMediaPaths(ctx, u.schema, inputs, u)
	var fe tasks.FieldErrors
	if errors.As(err, &fe) {
		u.refused = append(u.refused, imports.LineError{Line: n, Error: "invalid item", Details: fe})
		return []byte("\n"), nil
	}
	if err != nil {
		return nil, fmt.Errorf("line %d: %w", n, err)
	}
	if maps.EqualFunc(inputs, given, func(a, b json.RawMessage) bool { return bytes.Equal(a, b) }) {
		return line, nil
	}
	obj["inputs"], _ = json.Marshal(inputs)
	out, err := json.Marshal(obj)
	return append(out, '\n'), err
}

// Check takes a path that names a regular file of the media folder (no link, nothing outside
// it) whose bytes are a medium of type t, as the server will sniff them.
func (u *uploader) Check(rel string, t tasks.InputType) *tasks.FieldError {
	path, ok := u.inFolder(rel)
	if !ok {
		return &tasks.FieldError{Code: imports.CodeMissingMedia, Message: fmt.Sprintf("%q is not a path inside the media folder", rel)}
	}
	if _, done := u.assets[path]; done {
		return nil
	}
	if st, err := u.media.Stat(path); err != nil || !st.Mode().IsRegular() {
		// note: a link out of the media directory is no file of it
		return &tasks.FieldError{Code: imports.CodeMissingMedia, Message: fmt.Sprintf("the media folder has no file %q", rel)}
	}
	f, err := u.media.Open(path)
	if err != nil {
		return &tasks.FieldError{Code: imports.CodeMissingMedia, Message: fmt.Sprintf("%s cannot be read: %v", rel, err)}
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	if ct := mediapkg.SniffContentType(head[:n], path); !mediapkg.Fits(t, ct) {
		return &tasks.FieldError{Code: imports.CodeWrongMedia, Message: fmt.Sprintf("%s is %s, not %s", rel, mediapkg.Describe(ct), mediapkg.Medium(t))}
	}
	return nil
}

// AssetID uploads the file at rel (once) and returns its asset id.
func (u *uploader) AssetID(ctx context.Context, rel string) (string, error) {
	path, ok := u.inFolder(rel)
	if !ok {
		return "", fmt.Errorf("%q is not a path inside the media folder", rel)
	}
	if id, ok := u.assets[path]; ok {
		return id, nil
	}
	id, err := u.upload(ctx, path)
	if err != nil {
		return "", fmt.Errorf("upload %s: %w", rel, err)
	}
	u.assets[path] = id
	u.uploaded.Add(1)
	return id, nil
}

// inFolder is rel as a clean path inside the media folder, or false.
func (u *uploader) inFolder(rel string) (string, bool) {
	if rel == "" || len(rel) > 1024 || filepath.IsAbs(rel) || strings.HasPrefix(rel, "/") {
		return "", false
	}
	p := filepath.Clean(filepath.FromSlash(rel))
	if p == "." || p == ".." || strings.HasPrefix(p, ".."+string(filepath.Separator)) {
		return "", false
	}
	return p, true
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
