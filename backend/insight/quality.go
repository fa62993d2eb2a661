package insight

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"time"

	"github.com/arbiter-annotation/arbiter/agreement"
	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// The quality flags and the figures that raise them.
const (
	FlagLowGold        = "low_gold_accuracy"
	FlagRushed         = "rushed"
	FlagRubberStamping = "rubber_stamping"
	FlagAnchoring      = "anchoring"

	rushedShare     = 0.2  // more than this share of labels rushed …
	rushedMinLabels = 10   // … out of at least this many
	stampYesShare   = 0.95 // one binary question answered Yes more often than this …
	stampMinAnswers = 20   // … out of at least this many Yes/No answers
	anchorShare     = 0.9  // more than this share of drafted labels submitted unchanged …
	anchorMinLabels = 10   // … out of at least this many
)

// truthRater names the final ground truth in the quality tables.
const truthRater = "\x00truth"

// QualityReport is each annotator's quality figures, as GET .../quality answers them.
type QualityReport struct {
	ComputedAt time.Time          `json:"computed_at"`
	Annotators []AnnotatorQuality `json:"annotators"`
}

// AnnotatorQuality is one annotator's figures; nil where there is nothing to compute from.
type AnnotatorQuality struct {
	UserID         string             `json:"user_id"`
	Name           string             `json:"name"`
	Labels         int                `json:"labels"`
	MedianSeconds  *float64           `json:"median_seconds"`
	P10Seconds     *float64           `json:"p10_seconds"`
	RushedShare    *float64           `json:"rushed_share"`
	PeerAgreement  *float64           `json:"peer_agreement"`
	TruthAgreement *float64           `json:"truth_agreement"`
	Gold           GoldFigures        `json:"gold"`
	Paused         bool               `json:"paused"`
	YesRate        map[string]float64 `json:"yes_rate"`
	Drafts         DraftFigures       `json:"drafts"`
	// Reliability is the estimated accuracy from the project's Dawid–Skene model; nil when
	// none of the person's answers is to a question with categories.
	Reliability *ReliabilityFigures `json:"reliability"`
	Flags       []QualityFlag       `json:"flags"`
}

// GoldFigures is a person's accuracy on gold: overall and over the sliding window.
type GoldFigures struct {
	Answered       int      `json:"answered"`
	Correct        int      `json:"correct"`
	Accuracy       *float64 `json:"accuracy"`
	WindowAnswered int      `json:"window_answered"`
	WindowAccuracy *float64 `json:"window_accuracy"`
}

// DraftFigures is how a person's labels relate to the model drafts they started from.
type DraftFigures struct {
	Labels         int      `json:"labels"`
	Agreement      *float64 `json:"agreement"`
	UnchangedShare *float64 `json:"unchanged_share"`
}

// QualityFlag is one reason for a lead to look at an annotator.
type QualityFlag struct {
	Code   string `json:"code"`
	Reason string `json:"reason"`
}

// annotatorTally collects one person's labels.
type annotatorTally struct {
	seconds           []float64
	rushed            int
	yes, yesNo        map[string]int
	drafted, kept     int
	peerAgree, peerN  int64
	truthAgree, truth int64
	draftAgree, draft int64
}

// qualityTally collects a project's labels for the quality figures.
type qualityTally struct {
	p      *workflow.Project
	people map[string]*annotatorTally
	order  []string
	peers  *AgreementTables // raters: people and the final ground truth
	drafts *AgreementTables // units: labels; raters: "label" and "draft"
	truths map[string]bool
	rel    *reliabilityTables
	models map[string]*ReliabilityFigures // by person, once estimated
}

func (t *qualityTally) person(id string) *annotatorTally {
	a := t.people[id]
	if a == nil {
		a = &annotatorTally{yes: map[string]int{}, yesNo: map[string]int{}}
		t.people[id] = a
		t.order = append(t.order, id)
	}
	return a
}

// add takes in one production label.
func (t *qualityTally) add(r *store.LabelRow) error {
	answers, err := acceptedAnswers(r)
	if err != nil {
		return err
	}
	a := t.person(r.UserID)
	secs := float64(r.TimeSpentMS) / 1000
	a.seconds = append(a.seconds, secs)
	if secs < t.p.Policy.RushedSeconds {
		a.rushed++
	}
	for _, q := range t.p.Schema.Questions {
		if q.Kind != tasks.KindBinary {
			continue
		}
		var v string
		if json.Unmarshal(answers[q.Key], &v) == nil && (v == "yes" || v == "no") {
			a.yesNo[q.Key]++
			if v == "yes" {
				a.yes[q.Key]++
			}
		}
	}
	t.peers.Add(r.ItemID, r.UserID, answers)
	t.rel.add(r.ItemID, r.UserID, answers)
	if len(r.Truth) > 0 && r.ItemStage == flow.StageDone && !t.truths[r.ItemID] {
		var gt map[string]json.RawMessage
		if json.Unmarshal(r.Truth, &gt) == nil {
			t.truths[r.ItemID] = true
			t.peers.Add(r.ItemID, truthRater, gt)
		}
	}
	if len(r.Draft) > 0 {
		var draft map[string]json.RawMessage
		if json.Unmarshal(r.Draft, &draft) == nil {
			a.drafted++
			if sameAnswers(answers, draft) {
				a.kept++
			}
			t.drafts.Add(r.ID, "label", answers)
			t.drafts.Add(r.ID, "draft", draft)
			t.drafts.owner[r.ID] = r.UserID
		}
	}
	return nil
}

// acceptedAnswers decodes a production label's answers: a reviewer's correction in their place.
func acceptedAnswers(r *store.LabelRow) (map[string]json.RawMessage, error) {
	src := r.Answers
	if len(r.Effective) > 0 {
		src = r.Effective
	}
	var answers map[string]json.RawMessage
	if err := json.Unmarshal(workflow.OrEmpty(src), &answers); err != nil {
		return nil, fmt.Errorf("label %s: %w", r.ID, err)
	}
	return answers, nil
}

// sameAnswers compares two sets of answers by value.
func sameAnswers(a, b map[string]json.RawMessage) bool {
	var x, y any
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	json.Unmarshal(ja, &x)
	json.Unmarshal(jb, &y)
	return reflect.DeepEqual(x, y)
}

// pool adds each pair's agreeing and shared units of every question table to the people.
func (t *qualityTally) pool() error {
	for _, rt := range t.peers.tables {
		tab, err := rt.mapped.Build()
		if err != nil {
			continue // note: no ratings of this question
		}
		for _, c := range agreement.AllPairConfusions(tab) {
			pa, err := c.PercentAgreement()
			if err != nil {
				continue
			}
			agree := int64(math.Round(pa * float64(c.N)))
			a, b := tab.Rater(c.A), tab.Rater(c.B)
			switch {
			case a == truthRater:
				t.person(b).truthAgree += agree
				t.person(b).truth += c.N
			case b == truthRater:
				t.person(a).truthAgree += agree
				t.person(a).truth += c.N
			default:
				for _, id := range []string{a, b} {
					t.person(id).peerAgree += agree
					t.person(id).peerN += c.N
				}
			}
		}
	}
	for _, rt := range t.drafts.tables {
		tab, err := rt.mapped.Build()
		if err != nil {
			continue
		}
		for u := 0; u < tab.NumUnits(); u++ {
			raters, values := tab.UnitRatings(u)
			if len(raters) != 2 {
				continue
			}
			a := t.person(t.drafts.owner[unitLabel(tab.Unit(u))])
			a.draft++
			if values[0] == values[1] {
				a.draftAgree++
			}
		}
	}
	return nil
}

// unitLabel is the label id of a draft table's unit (sub-units carry a "/key" suffix).
func unitLabel(unit string) string {
	for i := 0; i < len(unit); i++ {
		if unit[i] == '/' {
			return unit[:i]
		}
	}
	return unit
}

// Quality computes each annotator's quality figures from the project's production labels and
// gold answers.
func (s *Service) Quality(ctx context.Context, p *workflow.Project) (*QualityReport, error) {
	t := &qualityTally{p: p, people: map[string]*annotatorTally{}, peers: NewAgreementTables(p.Schema),
		drafts: NewAgreementTables(p.Schema), truths: map[string]bool{}, rel: newReliabilityTables(p.Schema)}
	t.drafts.owner = map[string]string{}
	if err := s.store.EachProductionLabel(ctx, p.ID, true, t.add); err != nil {
		return nil, err
	}
	if err := t.pool(); err != nil {
		return nil, err
	}
	gold, err := s.store.GoldAnswers(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	goldLabels, err := s.store.GoldLabels(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	for _, l := range goldLabels {
		t.rel.addGold(l)
	}
	t.models = t.rel.estimate()
	members, err := s.store.MembersState(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	byUser := map[string][]store.GoldAnswer{}
	for _, g := range gold {
		t.person(g.UserID)
		byUser[g.UserID] = append(byUser[g.UserID], g)
	}
	rep := &QualityReport{ComputedAt: s.now(), Annotators: make([]AnnotatorQuality, 0, len(t.order))}
	for _, id := range t.order {
		rep.Annotators = append(rep.Annotators, t.figures(id, byUser[id], members[id]))
	}
	refs := make([]AnnotatorRef, len(rep.Annotators))
	for i, a := range rep.Annotators {
		refs[i] = AnnotatorRef{UserID: a.UserID}
	}
	if err := s.nameAnnotators(ctx, p.ID, refs); err != nil {
		return nil, err
	}
	for i := range rep.Annotators {
		rep.Annotators[i].Name = refs[i].Name
	}
	sort.SliceStable(rep.Annotators, func(i, j int) bool { return rep.Annotators[i].Name < rep.Annotators[j].Name })
	return rep, nil
}

// figures turns one person's tally into their figures and flags.
func (t *qualityTally) figures(id string, gold []store.GoldAnswer, m store.Member) AnnotatorQuality {
	a := t.people[id]
	q := AnnotatorQuality{UserID: id, Labels: len(a.seconds), Paused: m.Paused, YesRate: map[string]float64{}, Flags: []QualityFlag{}}
	if n := len(a.seconds); n > 0 {
		sorted := slices.Sorted(slices.Values(a.seconds))
		med := sorted[n/2]
		if n%2 == 0 {
			med = (sorted[n/2-1] + sorted[n/2]) / 2
		}
		p10 := sorted[max(int(math.Ceil(0.1*float64(n)))-1, 0)]
		q.MedianSeconds, q.P10Seconds, q.RushedShare = &med, &p10, share(int64(a.rushed), int64(n))
	}
	q.PeerAgreement, q.TruthAgreement = share(a.peerAgree, a.peerN), share(a.truthAgree, a.truth)
	for key, n := range a.yesNo {
		q.YesRate[key] = float64(a.yes[key]) / float64(n)
	}
	q.Drafts = DraftFigures{Labels: a.drafted, Agreement: share(a.draftAgree, a.draft), UnchangedShare: share(int64(a.kept), int64(a.drafted))}
	q.Gold = goldFigures(t.p, gold, m.GoldSince)
	q.Reliability = t.models[id]
	q.Flags = t.flags(q, a, gold, m.GoldSince)
	return q
}

// goldFigures counts a person's gold answers (newest first) overall and in their window.
func goldFigures(p *workflow.Project, gold []store.GoldAnswer, since *time.Time) GoldFigures {
	g := GoldFigures{Answered: len(gold)}
	for _, x := range gold {
		if x.Correct {
			g.Correct++
		}
	}
	g.Accuracy = share(int64(g.Correct), int64(g.Answered))
	w := p.JudgeWindow(goldWindow(p, gold, since))
	g.WindowAnswered, g.WindowAccuracy = w.Answered, w.Accuracy()
	return g
}

// goldWindow is the results of the latest gold answers after since, at most the policy's window.
func goldWindow(p *workflow.Project, gold []store.GoldAnswer, since *time.Time) []bool {
	var out []bool
	for _, x := range gold {
		if len(out) == p.Policy.GoldWindow || (since != nil && !x.SubmittedAt.After(*since)) {
			break
		}
		out = append(out, x.Correct)
	}
	return out
}

// flags names what a lead should look at.
func (t *qualityTally) flags(q AnnotatorQuality, a *annotatorTally, gold []store.GoldAnswer, since *time.Time) []QualityFlag {
	pol := t.p.Policy
	out := []QualityFlag{}
	if w := t.p.JudgeWindow(goldWindow(t.p, gold, since)); w.Below {
		out = append(out, QualityFlag{FlagLowGold, fmt.Sprintf("%d of the last %d gold answers correct, below %g", w.Correct, w.Answered, pol.GoldMinAccuracy)})
	}
	if q.Labels >= rushedMinLabels && *q.RushedShare > rushedShare {
		out = append(out, QualityFlag{FlagRushed, fmt.Sprintf("%d of %d labels took less than %g seconds", a.rushed, q.Labels, pol.RushedSeconds)})
	}
	for _, qu := range t.p.Schema.Questions {
		if n := a.yesNo[qu.Key]; n >= stampMinAnswers && q.YesRate[qu.Key] > stampYesShare {
			out = append(out, QualityFlag{FlagRubberStamping, fmt.Sprintf("%q answered Yes %d times of %d", qu.Key, a.yes[qu.Key], n)})
		}
	}
	if r := q.Reliability; lowReliability(r, pol.ReliabilityMinAccuracy) {
		out = append(out, QualityFlag{FlagLowReliability, fmt.Sprintf("estimated accuracy %.2f (95 %% interval %.2f–%.2f) over %d answers, below %g", r.Accuracy, r.Low, r.High, r.Ratings, pol.ReliabilityMinAccuracy)})
	}
	if a.drafted >= anchorMinLabels && float64(a.kept) > anchorShare*float64(a.drafted) {
		out = append(out, QualityFlag{FlagAnchoring, fmt.Sprintf("%d of %d labels that started from a model draft were submitted unchanged", a.kept, a.drafted)})
	}
	return out
}

func share(n, of int64) *float64 {
	if of == 0 {
		return nil
	}
	v := float64(n) / float64(of)
	return &v
}
