package diff

import (
	"regexp"
	"slices"
	"strings"

	"github.com/mglayout/mglayout/layout/access"
)

// GateRule is the rule that turns a comparison into pass or fail, as help
// diff and the README state it.
const GateRule = `A path's cost in a case (line size and phase) is the lines it touches,
plus the 128-byte blocks it touches below 128 bytes, plus the lines on
which it takes part in false sharing. A hot path (rate=hot: a reader or
writer that runs as fast as its callers) that costs more in any case is
a regression. A rate-limited path (rate=N/s: the tick, an hrtimer
callback) pays its cost N times a second; a hot path pays its own at its
callers' speed, faster than any rate-limited path. So a rate-limited
path that costs more is outweighed, and no regression, at a line size
where some hot path costs less (at any phase: where the object starts
is the linker's choice); it is a regression at a line size where no hot
path gains, and always under -strict.`

// PathChange is what a comparison did to one path: its cost before and
// after in the case where it changed most.
type PathChange struct {
	Path string
	// What is the path's own summary, from a note written as the
	// built-in models write theirs ("ktime_get_raw_ts64(),
	// kernel/time/timekeeping.c, v6.1: CLOCK_MONOTONIC_RAW, ..."):
	// CLOCK_MONOTONIC_RAW; empty for other notes.
	What                  string
	Rate                  string // "hot" or "250/s"
	Hot                   bool
	Worse                 bool  // costs more in some case; else less in some and more in none
	Line, Phase, NewPhase int64 // as in Row
	Old, New              int
	Changes               []FigureChange // the row's
	// Outweighed is set for a rate-limited path that costs more only
	// where some hot path costs less.
	Outweighed bool
}

// Judgement is a comparison under the gate: each path that changed, and
// whether the change is a regression.
type Judgement struct {
	Strict  bool
	Changes []PathChange
	// RegressedAt are the line sizes at which a regression happens.
	RegressedAt []int64
	// BetterAt are the line sizes at which some path costs less and none
	// regresses; Gaining are the paths that cost less at one of them
	// and more at none of its phases.
	BetterAt []int64
	Gaining  []string
}

// Regressed reports whether the change fails the gate.
func (j *Judgement) Regressed() bool { return len(j.RegressedAt) > 0 }

// Judge applies the gate (GateRule) to the comparison.
func (r *Result) Judge(strict bool) *Judgement {
	j := &Judgement{Strict: strict}
	paths := map[string]*access.Path{}
	for _, p := range r.Old.Object.Paths {
		paths[p.Name] = p
	}
	// Where the object starts within a line is the linker's to say, so
	// a hot path's gain at one phase of a line size counts for all.
	hotGain := map[int64]bool{}
	for _, row := range r.Rows {
		if p := paths[row.Path]; p != nil && p.Rate == access.Hot && row.New.GateUnits() < row.Old.GateUnits() {
			hotGain[row.Line] = true
		}
	}
	regressed := map[int64]bool{}
	better := map[int64]bool{}
	type pathLine struct {
		path string
		line int64
	}
	gains, losses := map[pathLine]bool{}, map[pathLine]bool{}
	for _, name := range r.PathNames() {
		p := paths[name]
		c := PathChange{Path: name, What: summary(p.Doc), Rate: p.RateString(), Hot: p.Rate == access.Hot, Outweighed: true}
		var changed bool
		delta := 0
		for _, row := range r.Rows {
			if row.Path != name {
				continue
			}
			o, n := row.Old.GateUnits(), row.New.GateUnits()
			d := n - o
			switch {
			case d > 0:
				losses[pathLine{name, row.Line}] = true
				if !c.Worse || d > delta {
					c.Line, c.Phase, c.NewPhase, c.Old, c.New, c.Changes, delta = row.Line, row.Phase, row.NewPhase, o, n, row.Changes, d
				}
				c.Worse, changed = true, true
				if c.Hot || strict || !hotGain[row.Line] {
					regressed[row.Line] = true
					c.Outweighed = false
				}
			case d < 0:
				gains[pathLine{name, row.Line}] = true
				better[row.Line] = true
				if !c.Worse && (!changed || d < delta) {
					c.Line, c.Phase, c.NewPhase, c.Old, c.New, c.Changes, delta = row.Line, row.Phase, row.NewPhase, o, n, row.Changes, d
				}
				changed = true
			}
		}
		if !changed {
			continue
		}
		if c.Hot || !c.Worse {
			c.Outweighed = false
		}
		j.Changes = append(j.Changes, c)
	}
	for _, line := range r.Lines {
		if regressed[line] {
			j.RegressedAt = append(j.RegressedAt, line)
		} else if better[line] {
			j.BetterAt = append(j.BetterAt, line)
		}
	}
	for _, c := range j.Changes {
		if slices.ContainsFunc(j.BetterAt, func(line int64) bool {
			return gains[pathLine{c.Path, line}] && !losses[pathLine{c.Path, line}]
		}) {
			j.Gaining = append(j.Gaining, c.Path)
		}
	}
	return j
}

// noteSummary matches a note "function(), file, version: what, ...".
var noteSummary = regexp.MustCompile(`[A-Za-z_0-9]+\(\)[^:]*, v[0-9][^:]*: ([^,;]+)`)

// summary is what a path's note says it is, in a few words.
func summary(doc string) string {
	if m := noteSummary.FindStringSubmatch(doc); m != nil {
		return strings.TrimSpace(m[1])
	}
	return ""
}
