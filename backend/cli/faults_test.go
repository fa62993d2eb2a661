//go:build faults

// Fault tests: servers in processes of their own are killed, their database connections cut
// and their object store stopped while simulated annotators work (or a release is written),
// and the lead changes memberships while they submit. They take a minute or more each and need
// PostgreSQL (and the minio binary); run them with `make test-faults`.
package cli

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
)

const faultAdminEmail, faultAdminPassword = "admin@example.org", "fault-test-admin-password"

// TestMain lets the test binary serve as a replica: with ARBITER_FAULT_SERVE set to the
// JSON of serve's arguments it runs `arbiter serve` and exits, so a test can kill it with -9.
func TestMain(m *testing.M) {
	if args := os.Getenv("ARBITER_FAULT_SERVE"); args != "" {
		var a []string
		if err := json.Unmarshal([]byte(args), &a); err != nil {
			panic(err)
		}
		os.Exit(Main(append([]string{"serve"}, a...), os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// freeAddr returns a local address nobody listens on.
func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// replicaProcess is one `arbiter serve` in a process of its own.
type replicaProcess struct {
	url string
	cmd *exec.Cmd
}

// startReplica starts a server process on the database and blob store and waits until it is
// ready.
func startReplica(t *testing.T, dsn, blobURL string, env ...string) *replicaProcess {
	t.Helper()
	addr := freeAddr(t)
	args := []string{"--addr", addr, "--data-dir", t.TempDir(), "--database-url", dsn, "--log-format", "json", "--log-level", "warn"}
	if blobURL != "" {
		args = append(args, "--blob-url", blobURL)
	}
	a, _ := json.Marshal(args)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), append(env, "ARBITER_FAULT_SERVE="+string(a),
		"ARBITER_ADMIN_EMAIL="+faultAdminEmail, "ARBITER_ADMIN_PASSWORD="+faultAdminPassword)...)
	log, err := os.Create(filepath.Join(t.TempDir(), "server.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := &replicaProcess{url: "http://" + addr, cmd: cmd}
	t.Cleanup(func() { r.kill() })
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if res, err := http.Get(r.url + "/readyz"); err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return r
			}
		}
	}
	b, _ := os.ReadFile(log.Name())
	t.Fatalf("replica did not become ready:\n%s", b)
	return nil
}

// kill ends the process with SIGKILL: no shutdown, no draining.
func (r *replicaProcess) kill() {
	if r.cmd.ProcessState == nil {
		r.cmd.Process.Signal(syscall.SIGKILL)
		r.cmd.Wait()
	}
}

// faultLoad enrols annotators on the servers and a project of n items, as `arbiter loadtest`.
func faultLoad(t *testing.T, servers []string, clients, items int) (*loadOptions, []*annotator, string) {
	t.Helper()
	ctx := context.Background()
	o := &loadOptions{servers: servers, clients: clients, duration: 30 * time.Second, skipRate: 0.05, draft: true, untilDone: true}
	hc := &http.Client{Timeout: 15 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: clients + 4}}
	admin := &loadAPI{http: hc, base: servers[0]}
	var err error
	if admin.token, err = loginAs(ctx, admin, faultAdminEmail, faultAdminPassword); err != nil {
		t.Fatal(err)
	}
	if o.project, err = createLoadProject(ctx, admin, items, io.Discard); err != nil {
		t.Fatal(err)
	}
	run := "f" + fmt.Sprint(time.Now().UnixNano()%1e6)
	people, err := enrol(ctx, admin, hc, o, run, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	return o, people, run
}

// verifyStored checks the database holds exactly the acknowledged submits, once each.
func verifyStored(t *testing.T, dsn, project, run string, acked []string) {
	t.Helper()
	st, err := store.OpenPool(context.Background(), dsn, store.Pool{MaxOpen: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var out strings.Builder
	if err := (&benchDB{st: st}).verify(context.Background(), &out, project, run, acked); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	t.Log(strings.TrimSpace(out.String()))
}

// TestFaultReplicaKilled: one of two replicas is killed with SIGKILL while annotators work on
// both. Its annotators walk away holding a claim: the one they had open, or, after retrying a
// submit in flight at the other replica (as a browser behind a load balancer would), the next
// item their browser opened there. Every acknowledged submit is
// stored exactly once; once the leases the walked-away annotators held expire, their items are
// claimed again and the project finishes with exactly three labels per item.
func TestFaultReplicaKilled(t *testing.T) {
	dsn := testenv.PostgresURL(t)
	a := startReplica(t, dsn, "")
	b := startReplica(t, dsn, "")
	// Enough items that the first phase cannot finish the project on an idle machine (400 did:
	// 1,200 submits in the two seconds before the kill).
	const items = 2000
	o, people, run := faultLoad(t, []string{a.url, b.url}, 12, items)
	o.duration = 5 * time.Second
	for _, p := range people {
		p.walkAway = p.api.base == b.url
	}
	go func() { time.Sleep(2 * time.Second); b.kill() }()
	first := annotate(context.Background(), people, o, io.Discard)
	db := openSQL(t, dsn)
	var held, undone int
	db.QueryRow(`SELECT count(*) FROM assignments WHERE project_id = $1 AND status = 'active'`, o.project).Scan(&held)
	db.QueryRow(`SELECT count(*) FROM items WHERE project_id = $1 AND stage <> 'done'`, o.project).Scan(&undone)
	if first.submits == 0 || held == 0 || undone == 0 {
		t.Fatalf("the kill left no work behind (submits %d, leases held %d, items not done %d); nothing is tested", first.submits, held, undone)
	}
	// note: leases run for minutes; expiring them is the time passing
	if _, err := db.Exec(`UPDATE assignments SET lease_expires_at = $1 WHERE status = 'active'`, time.Now().Add(-time.Minute)); err != nil {
		t.Fatal(err)
	}
	o.duration = 60 * time.Second
	for _, p := range people {
		p.api.base, p.walkAway, p.leaving, p.gone = a.url, false, false, false
	}
	second := annotate(context.Background(), people, o, io.Discard)
	acked := append(first.acked, second.acked...)
	verifyStored(t, dsn, o.project, run, acked)
	var wrong int
	db.QueryRow(`SELECT count(*) FROM items WHERE project_id = $1 AND stage <> 'done'`, o.project).Scan(&undone)
	db.QueryRow(`SELECT count(*) FROM (SELECT item_id FROM assignments WHERE project_id = $1 AND stage = 'label' AND status = 'submitted' GROUP BY item_id HAVING count(*) <> 3) x`, o.project).Scan(&wrong)
	if undone != 0 || wrong != 0 {
		t.Fatalf("after the leases expired: %d items not done, %d items without exactly 3 labels", undone, wrong)
	}
	t.Logf("%d leases held when the replica died; %d submits in all; errors seen by annotators: %v", held, len(acked), first.errors)
}

func openSQL(t *testing.T, dsn string) *sql.DB {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestFaultConnectionsTerminated: every connection to the database is terminated three
// times while annotators work on two replicas. Requests meanwhile get 503 with Retry-After
// (never 401, never a hang), the replicas recover by themselves, and every acknowledged
// submit is stored exactly once.
func TestFaultConnectionsTerminated(t *testing.T) {
	base := testenv.Service(t, testenv.EnvPostgres, "PostgreSQL")
	name := "arbiter_fault_" + fmt.Sprint(time.Now().UnixNano()%1e9)
	admin := openSQL(t, base)
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Exec("DROP DATABASE " + name + " WITH (FORCE)") })
	dsn := strings.Replace(base, "/"+dbName(t, base)+"?", "/"+name+"?", 1)
	a := startReplica(t, dsn, "")
	b := startReplica(t, dsn, "")
	// note: enough items that the load outlasts the three cuts on an idle machine
	o, people, run := faultLoad(t, []string{a.url, b.url}, 12, 2000)
	o.duration, o.untilDone = 12*time.Second, false
	terminate := func() {
		_, err := admin.Exec(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, name)
		if err != nil {
			t.Error(err)
		}
	}
	cut := make(chan struct{})
	go func() {
		defer close(cut)
		for i := 0; i < 3; i++ {
			time.Sleep(2 * time.Second)
			terminate()
		}
	}()
	tl := annotate(context.Background(), people, o, io.Discard)
	<-cut // note: the cuts end before the test does, whenever the load ends
	for k, n := range tl.errors {
		ep, status, _ := strings.Cut(k, " ")
		if status != "503" {
			t.Errorf("%d × %s answered %s while connections were cut: only 503 may be", n, ep, status)
		}
	}
	t.Logf("submits %d, errors %v", tl.submits, tl.errors)
	// recovery: both replicas serve again without help
	for _, srv := range []string{a.url, b.url} {
		p := people[0]
		p.api.base = srv
		ok := false
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline) && !ok; time.Sleep(200 * time.Millisecond) {
			st, err := p.api.do(context.Background(), "GET", "/api/v1/projects/"+o.project, nil, nil, nil, 200)
			ok = err == nil && st == 200
		}
		if !ok {
			t.Fatalf("%s did not recover after the connections were cut", srv)
		}
	}
	verifyStored(t, dsn, o.project, run, tl.acked)
}

// dbName is the database name of a PostgreSQL URL.
func dbName(t *testing.T, raw string) string {
	i := strings.LastIndex(raw, "/")
	j := strings.Index(raw[i:], "?")
	if i < 0 || j < 0 {
		t.Fatalf("cannot find the database name in %s", raw)
	}
	return raw[i+1 : i+j]
}

// minioProcess is a MinIO server of the test's own, which it can stop and start again on the
// same directory and port.
type minioProcess struct {
	bin, dir, addr string
	cmd            *exec.Cmd
}

const faultS3User, faultS3Password = "faultuser", "fault-password-123"

// minioBinary finds the minio binary on PATH or in ~/go/bin.
func minioBinary(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("minio")
	if err != nil {
		bin = filepath.Join(os.Getenv("HOME"), "go", "bin", "minio")
		if _, err := os.Stat(bin); err != nil {
			t.Fatal("no minio binary on PATH or in ~/go/bin: go install github.com/minio/minio@v0.0.0-20260212201848-7aac2a2c5b7c")
		}
	}
	return bin
}

func (m *minioProcess) start(t *testing.T) {
	t.Helper()
	m.cmd = exec.Command(m.bin, "server", m.dir, "--address", m.addr, "--console-address", freeAddr(t))
	m.cmd.Env = append(os.Environ(), "MINIO_ROOT_USER="+faultS3User, "MINIO_ROOT_PASSWORD="+faultS3Password, "MINIO_BROWSER=off")
	if err := m.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if res, err := http.Get("http://" + m.addr + "/minio/health/live"); err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return
			}
		}
	}
	t.Fatal("MinIO did not start")
}

func (m *minioProcess) stop() {
	if m.cmd != nil && m.cmd.ProcessState == nil {
		m.cmd.Process.Signal(syscall.SIGKILL)
		m.cmd.Wait()
	}
}

// TestFaultMinIOStopped: with the object store stopped, an upload and a release fail with an
// error that names the blob store (503 for the upload), annotation of the items already there
// goes on, and once the store is back both work again without a restart.
func TestFaultMinIOStopped(t *testing.T) {
	m := &minioProcess{bin: minioBinary(t), dir: t.TempDir(), addr: freeAddr(t)}
	m.start(t)
	t.Cleanup(m.stop)
	dsn := testenv.PostgresURL(t)
	r := startReplica(t, dsn, "s3://fault?endpoint="+m.addr+"&secure=false",
		"ARBITER_S3_ACCESS_KEY="+faultS3User, "ARBITER_S3_SECRET_KEY="+faultS3Password)
	ctx := context.Background()
	// Enough items that the first three seconds cannot finish the project on an idle machine
	// (work must be left for the annotation while MinIO is stopped).
	o, people, _ := faultLoad(t, []string{r.url}, 3, 2000)
	hc := &http.Client{Timeout: 2 * time.Minute}
	lead := &loadAPI{http: hc, base: r.url}
	var err error
	if lead.token, err = loginAs(ctx, lead, faultAdminEmail, faultAdminPassword); err != nil {
		t.Fatal(err)
	}
	project := "/api/v1/projects/" + o.project
	upload := func() (int, error) {
		var body strings.Builder
		mw := multipartWriter(&body)
		return lead.do(ctx, "POST", project+"/assets", strings.NewReader(body.String()), nil, map[string]string{"Content-Type": mw}, 201)
	}
	release := func() (status, message string) {
		var v struct {
			ID     string
			Status string
			Error  *string
		}
		if _, err := lead.do(ctx, "POST", project+"/releases", map[string]any{"name": "v1", "formats": []string{"jsonl"}}, &v, nil, 202); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(3 * time.Minute); v.Status != "done" && v.Status != "failed"; time.Sleep(200 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("release still %s", v.Status)
			}
			if _, err := lead.do(ctx, "GET", project+"/releases/"+v.ID, nil, &v, nil, 200); err != nil {
				t.Fatal(err)
			}
		}
		if v.Error != nil {
			message = *v.Error
		}
		return v.Status, message
	}
	if st, err := upload(); err != nil {
		t.Fatalf("upload with MinIO up: %d %v", st, err)
	}
	o.duration = 3 * time.Second
	if before := annotate(ctx, people, o, io.Discard); before.submits < 3 {
		t.Fatalf("%d submits before the stop: no item is done", before.submits)
	}

	m.stop()
	st, err := upload()
	if se, ok := err.(*apiStatusError); !ok || st != 503 || !strings.Contains(se.Body, "blob store") || se.RetryAfter == 0 {
		t.Fatalf("upload with MinIO stopped: %d %v", st, err)
	}
	if status, msg := release(); status != "failed" || !strings.Contains(msg, "blob store") {
		t.Fatalf("release with MinIO stopped: %s %q", status, msg)
	}
	during := annotate(ctx, people, o, io.Discard)
	if during.submits == 0 || len(during.errors) != 0 {
		t.Fatalf("annotation with MinIO stopped: %d submits, errors %v", during.submits, during.errors)
	}

	m.start(t)
	if st, err := upload(); err != nil {
		t.Fatalf("upload once MinIO is back: %d %v", st, err)
	}
	if status, msg := release(); status != "done" {
		t.Fatalf("release once MinIO is back: %s %q", status, msg)
	}
}

// multipartWriter writes a one-file multipart form into w and returns its content type.
func multipartWriter(w io.Writer) string {
	mw := multipart.NewWriter(w)
	fw, _ := mw.CreateFormFile("file", "note.txt")
	fw.Write([]byte("a small text asset"))
	mw.Close()
	return mw.FormDataContentType()
}
