package api_test

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/store"
)

// TestQualityFigures: every figure of GET .../quality equals what the test counts itself from
// the answers, times and drafts it submitted, and the flags follow: one annotator rushes, one
// submits model drafts unchanged, one answers Yes to everything.
func TestQualityFigures(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead := e.newUser("lead@example.org", false)
		rusher, anchor, stamper := e.newUser("rusher@example.org", false), e.newUser("anchor@example.org", false), e.newUser("stamper@example.org", false)
		people := []*client{rusher, anchor, stamper}
		pid := checklistProject(t, lead, map[string]any{"overlap": 3, "consensus": map[string]any{"nominal": "majority"},
			"adjudication": "never", "on_no_consensus": "drop", "draft_from_predictions": map[string]any{"method": "model", "model": "m1"},
			// three made-up ways of answering that never agree: the reliability flag is tested with simulated
			// annotators (insight.TestQualityReliabilityRanksSpammers), and kept out of this count by a minimum
			// no estimate is under
			"reliability_min_accuracy": 1e-9})
		for _, c := range people {
			lead.member(pid, c, "annotator")
		}
		keys := []string{"follows_prompt", "subject_count", "visible_artifacts", "safe"}
		mapv := map[string]map[string]string{
			"follows_prompt":    {"yes": "s", "no": "n"},
			"subject_count":     {"yes": "s", "no": "n", "na": "s"},
			"visible_artifacts": {"yes": "n", "no": "s"},
			"safe":              {"yes": "s", "no": "n"},
		}
		const items = 22
		var lines, preds []string
		draftOf := map[string]map[string]string{}
		for i := range items {
			ext := fmt.Sprintf("q-%02d", i)
			lines = append(lines, checklistLine(ext, nil))
			d := map[string]string{"follows_prompt": []string{"yes", "no"}[i%2], "subject_count": "yes", "visible_artifacts": "no", "safe": []string{"yes", "no"}[i%3/2]}
			draftOf[ext] = d
			b, _ := json.Marshal(map[string]any{"external_id": ext, "model": "m1", "answers": d})
			preds = append(preds, string(b))
		}
		lead.importNDJSON("/api/v1/projects/"+pid+"/items", lines...)
		lead.importNDJSON("/api/v1/projects/"+pid+"/predictions", preds...)
		type label struct {
			item    string
			answers map[string]string
			secs    float64
			draft   map[string]string
		}
		mine := map[string][]label{}
		extOf := map[string]string{}
		for _, it := range lead.items(pid, "") {
			extOf[it.ID] = it.ExternalID
		}
		n := 0
		for left := true; left; {
			left = false
			for who, c := range people {
				cl := c.next(pid, "label")
				if cl == nil {
					continue
				}
				left = true
				n++
				item := dbStrings(t, e.store, "SELECT item_id FROM assignments WHERE id = $1", cl.Assignment.ID)[0]
				draft := draftOf[extOf[item]]
				var a map[string]string
				secs := float64(3000+(n*1700)%9000) / 1000
				switch who {
				case 0: // rushes, and answers its own way
					secs = float64(500+(n*300)%2000) / 1000
					a = map[string]string{"follows_prompt": []string{"yes", "no"}[n%2], "subject_count": []string{"yes", "no", "na"}[n%3],
						"visible_artifacts": []string{"no", "yes"}[n%4/3], "safe": []string{"yes", "no"}[n%5/4]}
				case 1: // keeps the draft, except once
					a = draft
					if n%11 == 0 {
						a = map[string]string{"follows_prompt": "no", "subject_count": "no", "visible_artifacts": "yes", "safe": "no"}
					}
				default: // Yes to everything
					a = map[string]string{"follows_prompt": "yes", "subject_count": "yes", "visible_artifacts": "yes", "safe": "yes"}
				}
				if string(cl.Draft["follows_prompt"]) != `"`+draft["follows_prompt"]+`"` {
					t.Fatalf("draft %s, want %v", cl.raw, draft)
				}
				c.submitOK(cl.Assignment.ID, map[string]any{"answers": a, "time_spent_ms": int64(secs * 1000)})
				mine[c.user.ID] = append(mine[c.user.ID], label{item, a, secs, draft})
			}
		}
		truth := map[string]map[string]string{}
		for _, it := range lead.items(pid, "stage=done") {
			truth[it.ID] = map[string]string{}
			for k, v := range it.GroundTruth.Answers {
				var s string
				json.Unmarshal(v, &s)
				truth[it.ID][k] = s
			}
		}
		if len(truth) == 0 {
			t.Fatal("no item is done")
		}
		got := quality(t, lead, pid)
		for who, c := range people {
			ls := mine[c.user.ID]
			q := got[c.user.ID]
			var secs []float64
			rushed := 0
			yes, yesNo := map[string]int{}, map[string]int{}
			var tAgree, tN, dAgree, dN, kept, pAgree, pN int
			for _, l := range ls {
				secs = append(secs, l.secs)
				if l.secs < 3 {
					rushed++
				}
				for _, k := range keys {
					if v := l.answers[k]; v == "yes" || v == "no" {
						yesNo[k]++
						if v == "yes" {
							yes[k]++
						}
					}
					if gt, ok := truth[l.item]; ok {
						tN++
						if mapv[k][gt[k]] == mapv[k][l.answers[k]] {
							tAgree++
						}
					}
					dN++
					if mapv[k][l.draft[k]] == mapv[k][l.answers[k]] {
						dAgree++
					}
					for _, other := range people {
						if other == c {
							continue
						}
						for _, o := range mine[other.user.ID] {
							if o.item == l.item {
								pN++
								if mapv[k][o.answers[k]] == mapv[k][l.answers[k]] {
									pAgree++
								}
							}
						}
					}
				}
				if fmt.Sprint(l.answers) == fmt.Sprint(l.draft) {
					kept++
				}
			}
			slices.Sort(secs)
			med := secs[len(secs)/2]
			if len(secs)%2 == 0 {
				med = (secs[len(secs)/2-1] + secs[len(secs)/2]) / 2
			}
			p10 := secs[int(math.Ceil(0.1*float64(len(secs))))-1]
			if q.Labels != len(ls) || q.Labels != items {
				t.Fatalf("%s: %d labels, want %d", c.user.Email, q.Labels, len(ls))
			}
			checkFigure(t, "median", q.MedianSeconds, &med)
			checkFigure(t, "p10", q.P10Seconds, &p10)
			checkFigure(t, "rushed", q.RushedShare, ptr(float64(rushed)/float64(len(ls))))
			checkFigure(t, "truth", q.TruthAgreement, ptr(float64(tAgree)/float64(tN)))
			checkFigure(t, "peers", q.PeerAgreement, ptr(float64(pAgree)/float64(pN)))
			checkFigure(t, "drafts", q.Drafts.Agreement, ptr(float64(dAgree)/float64(dN)))
			checkFigure(t, "unchanged", q.Drafts.UnchangedShare, ptr(float64(kept)/float64(len(ls))))
			for _, k := range keys {
				if q.YesRate[k] != float64(yes[k])/float64(yesNo[k]) {
					t.Fatalf("%s yes rate of %s: %v, want %d/%d", c.user.Email, k, q.YesRate[k], yes[k], yesNo[k])
				}
			}
			if q.Drafts.Labels != len(ls) || q.Gold.Answered != 0 || q.Gold.Accuracy != nil {
				t.Fatalf("%s: %+v", c.user.Email, q)
			}
			var codes []string
			for _, f := range q.Flags {
				codes = append(codes, f.Code)
			}
			slices.Sort(codes)
			codes = slices.Compact(codes)
			want := [][]string{{"rushed"}, {"anchoring"}, {"rubber_stamping"}}[who]
			if !slices.Equal(codes, want) {
				t.Fatalf("%s flags %v, want %v", c.user.Email, q.Flags, want)
			}
		}
	})
}
