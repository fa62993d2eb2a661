package api

import (
	"context"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/arbiter-annotation/arbiter/backend/flow"
)

// stuckRefresh is how often a scrape recounts stuck work; scrapes in between get the last
// counts, so a busy scraper costs the database one count per stage and project per interval.
const stuckRefresh = 30 * time.Second

// stuckCollector exports arbiter_stuck_work{stage}: the waiting work that no current member can
// be given, summed over projects. The stage label takes the four work stages only (a fixed
// set); projects are never a label, so the number of series does not grow with the data.
type stuckCollector struct {
	desc  *prometheus.Desc
	count func(context.Context) (map[flow.Stage]int64, error)
	mu    sync.Mutex
	at    time.Time
	last  map[flow.Stage]int64
	ok    bool
}

var _ prometheus.Collector = (*stuckCollector)(nil)

func newStuckCollector(count func(context.Context) (map[flow.Stage]int64, error)) *stuckCollector {
	return &stuckCollector{count: count, desc: prometheus.NewDesc("arbiter_stuck_work",
		"Waiting work that no current project member can be given (everyone with the stage's role has worked the item), by work stage, over projects not archived.",
		[]string{"stage"}, nil)}
}

// Describe sends the one descriptor.
func (c *stuckCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

// Collect sends one gauge per work stage; when counting fails the gauges are left out of the
// scrape rather than reported as zero.
func (c *stuckCollector) Collect(ch chan<- prometheus.Metric) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if time.Since(c.at) >= stuckRefresh {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		counts, err := c.count(ctx)
		cancel()
		c.at, c.ok = time.Now(), err == nil
		if err == nil {
			c.last = counts
		}
	}
	if !c.ok {
		return
	}
	for _, stage := range flow.WorkStages {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(c.last[stage]), string(stage))
	}
}
