package insight_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/arbiter-annotation/arbiter/agreement"
	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/insight"
	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// threeByFour is what three annotators answer on four items: ok (binary, N/A left open) and
// score (Likert), one row per annotator.
var threeByFour = map[string]map[string][2]any{
	"i1": {"Ann": {"yes", 5}, "Ben": {"yes", 5}, "Cat": {"yes", 4}},
	"i2": {"Ann": {"yes", 3}, "Ben": {"yes", 3}, "Cat": {"no", 3}},
	"i3": {"Ann": {"no", 1}, "Ben": {"no", 2}, "Cat": {"no", 3}},
	"i4": {"Ann": {"yes", 4}, "Ben": {"na", 4}, "Cat": {"na", 4}},
}

// labelThreeByFour makes a project of smallSchema with overlap 3 and has Ann, Ben and Cat
// label i1..i4 as threeByFour says.
func labelThreeByFour(t *testing.T, st *store.Store) (*fixture, []*store.User) {
	t.Helper()
	f := newFixture(t, st, projects.ProjectSpec{Workflow: policy(3)})
	people := f.annotators("Ann", "Ben", "Cat")
	f.importItems(line("i1"), line("i2"), line("i3"), line("i4"))
	for _, u := range people {
		if got := f.label(u, func(ext string) tasks.Answers {
			a := threeByFour[ext][u.Name]
			return answers("ok", a[0], "score", a[1])
		}, fixed(4000)); len(got) != 4 {
			t.Fatalf("%s labeled %d items", u.Name, len(got))
		}
	}
	return f, people
}

// reference builds agreement's table of one question of threeByFour the plain way: binary
// answers after the mapping (or raw), an open N/A left out.
func reference(t *testing.T, level agreement.Level, people []*store.User, column int, raw bool) *agreement.Table {
	t.Helper()
	b := agreement.NewBuilder(level, 0)
	for _, item := range []string{"i1", "i2", "i3", "i4"} {
		for _, u := range people {
			v := threeByFour[item][u.Name][column]
			switch {
			case column == 1:
				b.Add(item, u.ID, []string{"", "1", "2", "3", "4", "5"}[v.(int)])
			case raw:
				b.Add(item, u.ID, v.(string))
			case v == "yes":
				b.Add(item, u.ID, "satisfied")
			case v == "no":
				b.Add(item, u.ID, "not_satisfied")
			}
		}
	}
	tab, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// value is a metric's value, NaN (which no figure is near) when it is undefined.
func value(v float64, err error) float64 {
	if err != nil {
		return math.NaN()
	}
	return v
}

// TestAgreementFigures: on three annotators and four items the report's figures are those of
// the labels counted by hand (percent agreement, exact, ±1, MAD, the pair matrix) and those
// agreement computes on the same labels (alpha and its interval, Fleiss, Gwet); the question
// filter narrows the questions, the macro averages and the matrix.
func TestAgreementFigures(t *testing.T) {
	forEachBackend(t, func(t *testing.T, st *store.Store) {
		f, people := labelThreeByFour(t, st)
		p := f.project()
		rep, err := f.in.Agreement(f.ctx, p, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Status != insight.AgreementReady || rep.ComputedAt == nil || rep.Labels != 12 || rep.SchemaVersion != 1 {
			t.Fatalf("report: %s at %v, %d labels, schema v%d", rep.Status, rep.ComputedAt, rep.Labels, rep.SchemaVersion)
		}
		if len(rep.Questions) != 2 || rep.Questions[0].Key != "ok" || rep.Questions[1].Key != "score" {
			t.Fatalf("questions %+v", rep.Questions)
		}
		ok, score := rep.Questions[0], rep.Questions[1]
		// ok: i4 has one mapped rating (Ann's yes), so three units are pairable: 1, 1/3, 1
		if ok.Level != "nominal" || ok.Type != "binary" || ok.NUnits != 4 || ok.NRatings != 10 {
			t.Errorf("ok: level %s, type %s, %d units, %d ratings", ok.Level, ok.Type, ok.NUnits, ok.NRatings)
		}
		near(t, "ok percent agreement", ok.PercentAgreement, 7.0/9)
		okTab := reference(t, agreement.Nominal, people, 0, false)
		near(t, "ok alpha", ok.Alpha, value(agreement.Alpha(okTab)))
		near(t, "ok fleiss", ok.FleissKappa, value(agreement.FleissKappa(okTab)))
		near(t, "ok gwet", ok.GwetAC1, value(agreement.GwetAC1(okTab)))
		if ok.Exact != nil || ok.WithinOne != nil || ok.MAD != nil || ok.Raw == nil {
			t.Errorf("ok: ordinal figures %v %v %v, raw %+v", show(ok.Exact), show(ok.WithinOne), show(ok.MAD), ok.Raw)
		}
		// raw: i4 is yes, na, na (one agreeing pair of three)
		near(t, "ok raw percent agreement", ok.Raw.PercentAgreement, (1+1.0/3+1+1.0/3)/4)
		near(t, "ok raw alpha", ok.Raw.Alpha, value(agreement.Alpha(reference(t, agreement.Nominal, people, 0, true))))

		if score.Level != "ordinal" || score.NUnits != 4 || score.NRatings != 12 || score.FleissKappa != nil || score.Raw != nil {
			t.Errorf("score: %+v", score)
		}
		near(t, "score percent agreement", score.PercentAgreement, (1.0/3+1+0+1)/4)
		near(t, "score exact", score.Exact, 7.0/12)
		near(t, "score within one", score.WithinOne, 11.0/12)
		near(t, "score mad", score.MAD, 6.0/12)
		scoreTab := reference(t, agreement.Ordinal, people, 1, false)
		alpha := value(agreement.Alpha(scoreTab))
		near(t, "score alpha", score.Alpha, alpha)
		// the job's intervals are the bootstrap's that builds every resampled table
		for _, q := range []struct {
			name string
			tab  *agreement.Table
			ci   *[2]float64
		}{{"score", scoreTab, score.AlphaCI}, {"ok", okTab, ok.AlphaCI}} {
			cis, err := agreement.Bootstrap(q.tab, []func(*agreement.Table) (float64, error){agreement.Alpha},
				agreement.BootstrapOptions{Replicates: insight.AgreementReplicates, Seed: insight.AgreementSeed})
			if err != nil || q.ci == nil || q.ci[0] != cis[0].Lower || q.ci[1] != cis[0].Upper {
				t.Errorf("%s alpha interval %v, bootstrap %+v (%v)", q.name, q.ci, cis, err)
			}
		}
		near(t, "macro percent agreement", rep.Macro.PercentAgreement, (7.0/9+7.0/12)/2)
		near(t, "macro alpha", rep.Macro.Alpha, (*ok.Alpha+alpha)/2)
		// pooled over both questions: Ann–Ben agree on 3 of 3 ok and 3 of 4 scores
		checkMatrix(t, rep.Matrix, people, map[[2]string]float64{{"Ann", "Ben"}: 6.0 / 7, {"Ann", "Cat"}: 4.0 / 7, {"Ben", "Cat"}: 4.0 / 7})

		only, err := f.in.Agreement(f.ctx, p, "label", []string{"score"})
		if err != nil {
			t.Fatal(err)
		}
		if len(only.Questions) != 1 || only.Questions[0].Key != "score" {
			t.Fatalf("filtered questions %+v", only.Questions)
		}
		near(t, "filtered macro percent agreement", only.Macro.PercentAgreement, 7.0/12)
		checkMatrix(t, only.Matrix, people, map[[2]string]float64{{"Ann", "Ben"}: 3.0 / 4, {"Ann", "Cat"}: 2.0 / 4, {"Ben", "Cat"}: 2.0 / 4})
	})
}

// checkMatrix compares a matrix with the pairs' shares by name, nil on the diagonal.
func checkMatrix(t *testing.T, m insight.AgreementMatrix, people []*store.User, want map[[2]string]float64) {
	t.Helper()
	if len(m.Annotators) != len(people) || len(m.Values) != len(people) {
		t.Fatalf("matrix of %d annotators: %+v", len(m.Annotators), m)
	}
	for i, a := range m.Annotators {
		if !slices.ContainsFunc(people, func(u *store.User) bool { return u.ID == a.UserID && u.Name == a.Name }) {
			t.Fatalf("matrix annotator %+v", a)
		}
		for j, b := range m.Annotators {
			v := m.Values[i][j]
			if i == j {
				if v != nil {
					t.Errorf("diagonal %s = %v", a.Name, *v)
				}
				continue
			}
			pair := [2]string{a.Name, b.Name}
			if pair[0] > pair[1] {
				pair[0], pair[1] = pair[1], pair[0]
			}
			near(t, "matrix "+pair[0]+"–"+pair[1], v, want[pair])
		}
	}
}

// TestAgreementRefusals: only the label stage, and only questions with a level of measurement.
func TestAgreementRefusals(t *testing.T) {
	f := newFixture(t, openSQLite(t), projects.ProjectSpec{Workflow: policy(2)})
	p := f.project()
	for _, c := range []struct {
		name, stage, field, code string
		questions                []string
	}{
		{"review stage", "review", "stage", "invalid_value", nil},
		{"free text", "", "questions", "unknown_question", []string{"notes"}},
		{"no such question", "label", "questions", "unknown_question", []string{"score", "nope"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep, err := f.in.Agreement(f.ctx, p, c.stage, c.questions)
			if rep != nil || fieldCode(err, c.field) != c.code {
				t.Fatalf("got %+v, %v; want %s on %s", rep, err, c.code, c.field)
			}
		})
	}
	empty, err := f.in.Agreement(f.ctx, p, "", nil)
	if err != nil || empty.Status != insight.AgreementReady || empty.Labels != 0 || len(empty.Questions) != 2 || empty.Questions[0].Alpha != nil ||
		len(empty.Matrix.Annotators) != 0 || empty.Macro.Alpha != nil {
		t.Fatalf("a project without labels: %+v, %v", empty, err)
	}
}

// TestAgreementKeptUntilLabelsChange: with a job queue the first answer is "computing" with
// one refresh queued (and no second one while it is pending); the job's figures are then
// answered as they were kept, until a new label makes them stale: computing again, with the
// old figures, and one more refresh queued. A queue that fails fails the answer.
func TestAgreementKeptUntilLabelsChange(t *testing.T) {
	forEachBackend(t, func(t *testing.T, st *store.Store) {
		f := newFixture(t, st, projects.ProjectSpec{Workflow: policy(2)})
		people := f.annotators("Ann", "Ben")
		f.importItems(line("i1"), line("i2"), line("i3"))
		q := &queue{}
		f.in.UseJobs(q)
		p := f.project()
		first := func(ext string) tasks.Answers {
			if ext == "i3" {
				return nil
			}
			return answers("ok", "yes", "score", 3)
		}
		for _, u := range people {
			f.label(u, first, fixed(2000))
		}
		for range 2 {
			rep, err := f.in.Agreement(f.ctx, p, "", nil)
			if err != nil || rep.Status != insight.AgreementComputing || rep.ComputedAt != nil || len(rep.Questions) != 0 {
				t.Fatalf("before the job: %+v, %v", rep, err)
			}
		}
		if !slices.Equal(q.agree, []string{f.pid + "/label"}) {
			t.Fatalf("refreshes queued: %v", q.agree)
		}
		if err := f.in.RunAgreement(f.ctx, f.pid, flow.StageLabel); err != nil {
			t.Fatal(err)
		}
		rep, err := f.in.Agreement(f.ctx, p, "", nil)
		if err != nil || rep.Status != insight.AgreementReady || rep.Labels < 2 || len(rep.Questions) != 2 {
			t.Fatalf("after the job: %+v, %v", rep, err)
		}
		kept := rep.Labels
		// the open claims of i3 (or others) are submitted now: the figures are stale
		for _, u := range people {
			f.label(u, func(string) tasks.Answers { return answers("ok", "no", "score", 1) }, fixed(2000))
		}
		stale, err := f.in.Agreement(f.ctx, p, "", nil)
		if err != nil || stale.Status != insight.AgreementComputing || stale.Labels != kept || stale.ComputedAt == nil {
			t.Fatalf("after a new label: %+v, %v", stale, err)
		}
		if len(q.agree) != 2 {
			t.Fatalf("refreshes queued: %v", q.agree)
		}
		if err := f.in.RunAgreement(f.ctx, f.pid, flow.StageLabel); err != nil {
			t.Fatal(err)
		}
		if rep, err := f.in.Agreement(f.ctx, p, "", nil); err != nil || rep.Status != insight.AgreementReady || rep.Labels != 6 {
			t.Fatalf("after the second job: %+v, %v", rep, err)
		}
		// a failing queue: the answer fails (the request is not recorded as pending)
		f.importItems(line("i4"))
		f.label(people[0], func(string) tasks.Answers { return answers("ok", "no", "score", 1) }, fixed(2000))
		q.fail = errors.New("queue down")
		if _, err := f.in.Agreement(f.ctx, p, "", nil); !errors.Is(err, q.fail) {
			t.Fatalf("with the queue down: %v", err)
		}
	})
}

// TestRunAgreementWithoutProject: the job of a deleted project, or of one without a schema,
// has nothing to do.
func TestRunAgreementWithoutProject(t *testing.T) {
	st := openSQLite(t)
	f := newFixture(t, st, projects.ProjectSpec{Workflow: policy(1)})
	noSchema, err := f.proj.CreateProject(f.ctx, f.lead, projects.ProjectSpec{Name: "later"})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"no-such-project", noSchema.ID} {
		if err := f.in.RunAgreement(f.ctx, id, flow.StageLabel); err != nil {
			t.Errorf("job of %s: %v", id, err)
		}
		if err := f.in.RunFigures(f.ctx, id, flow.FiguresBalance, ""); err != nil {
			t.Errorf("figures job of %s: %v", id, err)
		}
	}
	if _, err := st.AgreementResult(f.ctx, noSchema.ID, flow.StageLabel); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("figures kept for a project without a schema: %v", err)
	}
}

// TestParseQuestionList splits and trims, dropping empty keys.
func TestParseQuestionList(t *testing.T) {
	for in, want := range map[string][]string{"": nil, "a": {"a"}, " a , b,,c ": {"a", "b", "c"}, ",,": nil} {
		if got := insight.ParseQuestionList(in); !slices.Equal(got, want) {
			t.Errorf("ParseQuestionList(%q) = %q, want %q", in, got, want)
		}
	}
}
