package cli

import (
	"bytes"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// The database's own CPU time per unit of work, read from /proc when PostgreSQL runs on the
// load test's machine: it tells the database's share of the work apart from the servers' and
// the load generator's, which share the machine's cores with it.

// clockTicks is Linux's USER_HZ, the unit of the times in /proc/PID/stat (100 on every
// architecture Go supports on Linux).
const clockTicks = 100

// processCPU is the CPU time used so far by the processes named comm on this machine,
// including their children that have exited and been waited for (PostgreSQL's postmaster
// waits for its backends, so a closed connection's time stays counted). found is false where
// /proc shows no such process.
func processCPU(comm string) (total time.Duration, found bool) {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue // note: the process ended meanwhile
		}
		if ticks, ok := statCPU(b, comm); ok {
			total += time.Duration(ticks) * time.Second / clockTicks
			found = true
		}
	}
	return total, found
}

// statCPU reads utime, stime, cutime and cstime (fields 14 to 17) of a /proc/PID/stat line
// whose command is comm.
func statCPU(stat []byte, comm string) (ticks int64, ok bool) {
	open, end := bytes.IndexByte(stat, '('), bytes.LastIndexByte(stat, ')')
	if open < 0 || end < open || string(stat[open+1:end]) != comm {
		return 0, false
	}
	f := bytes.Fields(stat[end+1:]) // note: f[0] is field 3, the state
	if len(f) < 15 {
		return 0, false
	}
	for _, v := range f[11:15] {
		n, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil {
			return 0, false
		}
		ticks += n
	}
	return ticks, true
}

// localDatabase reports whether a PostgreSQL URL names this machine (loopback, or a socket).
func localDatabase(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return false
	}
	host := u.Hostname()
	if host == "" || host == "localhost" || filepath.IsAbs(host) {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// dbCPU measures the local PostgreSQL's CPU time over a span of the load test.
type dbCPU struct {
	enabled bool
	start   time.Duration
}

func startDBCPU(on bool) dbCPU {
	if !on {
		return dbCPU{}
	}
	t, ok := processCPU("postgres")
	return dbCPU{enabled: ok, start: t}
}

// perUnit is the CPU time used since the start, per unit of work; 0 when not measured.
func (c dbCPU) perUnit(units float64) time.Duration {
	if !c.enabled || units <= 0 {
		return 0
	}
	t, _ := processCPU("postgres")
	return time.Duration(float64(t-c.start) / units)
}
