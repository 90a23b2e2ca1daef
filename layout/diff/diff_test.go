package diff_test

import (
	"slices"
	"testing"

	_ "github.com/mglayout/mglayout/internal/golden" // -update, which go test ./... -update gives every package
	"github.com/mglayout/mglayout/layout/diff"
	"github.com/mglayout/mglayout/layout/sharing"
	"github.com/mglayout/mglayout/structs"
)

var lines = []int64{64, 128}

// analyze analyses a built-in model or scenario at the test's line sizes.
func analyze(t *testing.T, name string) *sharing.ObjectAnalysis {
	t.Helper()
	o, err := structs.Object(name, "amd64")
	if err != nil {
		t.Fatal(err)
	}
	a, err := sharing.Analyze([]*sharing.Object{o}, lines)
	if err != nil {
		t.Fatal(err)
	}
	return &a.Objects[0]
}

func row(t *testing.T, r *diff.Result, path string, line, phase int64) diff.Row {
	t.Helper()
	for _, row := range r.Rows {
		if row.Path == path && row.Line == line && row.Phase == phase {
			return row
		}
	}
	t.Fatalf("no row for %s at %d/%d", path, line, phase)
	return diff.Row{}
}

// TestGuohui checks the facts of the maintainer's 2023 argument against
// the padding patch.
func TestGuohui(t *testing.T) {
	r, err := diff.Compare(analyze(t, "tk_core@v6.1"), analyze(t, "tk_core@v6.1+guohui"), lines)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.WorseAt(); !slices.Equal(got, []int64{64, 128}) {
		t.Errorf("WorseAt = %v, want [64 128]", got)
	}
	coarse := "ktime_get_coarse_real_ts64"
	// 64 B: the same number of lines, but no longer one 128-byte pair.
	r64 := row(t, r, coarse, 64, 0)
	if r64.Verdict != diff.Worse || !slices.Equal(r64.Old.Lines, []int64{0, 1}) || !slices.Equal(r64.New.Lines, []int64{0, 2}) ||
		r64.Old.Blocks128 != 1 || r64.New.Blocks128 != 2 {
		t.Errorf("64/0: %+v", r64)
	}
	// 128 B, phase 0: one line becomes two.
	if r := row(t, r, coarse, 128, 0); r.Verdict != diff.Worse || len(r.Old.Lines) != 1 || len(r.New.Lines) != 2 {
		t.Errorf("128/0: %+v", r)
	}
	// 128 B, phase 64: nothing changes.
	if r := row(t, r, coarse, 128, 64); r.Verdict != diff.Same {
		t.Errorf("128/64: %+v", r)
	}
	// seq and xtime_sec: same writer, same readers, true sharing.
	found := false
	for _, s := range r.Separations {
		if s.A == "seq" && s.B == "timekeeper.xtime_sec" && s.Line == 128 && s.Phase == 0 {
			found = true
			if !slices.Equal(s.Writers, []string{"tick"}) || !slices.Contains(s.Readers, coarse) || !s.AllTrue {
				t.Errorf("separation %+v: want writer tick, reader %s, all true", s, coarse)
			}
		}
	}
	if !found {
		t.Errorf("no separation of seq and timekeeper.xtime_sec at 128/0: %+v", r.Separations)
	}
	if r.FalseOld != 0 || r.FalseNew != 0 {
		t.Errorf("false pairs %d → %d, want none", r.FalseOld, r.FalseNew)
	}
	if !slices.Contains(r.Added, "timekeeper.padding") {
		t.Errorf("added %v, want timekeeper.padding", r.Added)
	}
}

// TestReverseIsBetter checks that undoing a regression is an improvement.
func TestReverseIsBetter(t *testing.T) {
	r, err := diff.Compare(analyze(t, "tk_core@v6.1+guohui"), analyze(t, "tk_core@v6.1"), lines)
	if err != nil {
		t.Fatal(err)
	}
	if r.Regressed() {
		t.Errorf("removing the padding regresses at %v", r.WorseAt())
	}
}

// TestV613 checks the reorder's stated goal: REALTIME and MONOTONIC on
// lines 0 and 1 only, MONOTONIC_RAW's data on a line of its own.
func TestV613(t *testing.T) {
	r, err := diff.Compare(analyze(t, "tk_core@v6.1"), analyze(t, "tk_data@v6.13"), lines)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"ktime_get", "ktime_get_real_ts64", "ktime_get_coarse_real_ts64"} {
		for _, l := range row(t, r, p, 64, 0).New.Lines {
			if l > 1 {
				t.Errorf("%s touches line %d at 64 B", p, l)
			}
		}
	}
	if got := row(t, r, "ktime_get_raw_ts64", 64, 0); !slices.Equal(got.New.Lines, []int64{0, 2}) || got.Verdict != diff.Better {
		t.Errorf("ktime_get_raw_ts64 at 64/0: %+v, want lines 0,2 and better", got)
	}
	if !slices.Equal(r.OnlyNew, []string{"ktime_get_coarse_real_ts64_mg", "ktime_get_real_ts64_mg"}) {
		t.Errorf("only in new: %v", r.OnlyNew)
	}
}

// TestExplainGuohui checks the argument against the 2023 padding as
// data: xtime_sec moved away from seq, which the tick writes and the
// coarse reader reads with it (true sharing); at 64 B phase 0 the coarse
// reader no longer finds its lines in one 128-byte pair, and at 128 B
// phase 64 nothing changes for it.
func TestExplainGuohui(t *testing.T) {
	r, err := diff.Compare(analyze(t, "tk_core@v6.1"), analyze(t, "tk_core@v6.1+guohui"), lines)
	if err != nil {
		t.Fatal(err)
	}
	e := r.Explain()
	if !slices.Contains(e.Added, "timekeeper.padding") {
		t.Errorf("Added %v, want timekeeper.padding", e.Added)
	}
	coarse := "ktime_get_coarse_real_ts64"
	i := slices.IndexFunc(e.Separated, func(g diff.SeparatedGroup) bool { return g.Moved == "timekeeper.xtime_sec" })
	if i < 0 {
		t.Fatalf("no separated group for timekeeper.xtime_sec: %+v", e.Separated)
	}
	g := e.Separated[i]
	if !slices.Contains(g.Partners, "seq") || !slices.Equal(g.Writers, []string{"tick"}) || !slices.Contains(g.Readers, coarse) || !g.AllTrue {
		t.Errorf("group %+v: want partner seq, writer tick, reader %s, all true", g, coarse)
	}
	j := slices.IndexFunc(e.Paths, func(pc diff.PathChanges) bool { return pc.Path == coarse })
	if j < 0 {
		t.Fatalf("no changes for %s: %+v", coarse, e.Paths)
	}
	pc := e.Paths[j]
	k := slices.IndexFunc(pc.Changed, func(cc diff.CaseChange) bool { return cc.Case == diff.Case{Line: 64, Phase: 0, NewPhase: 0} })
	if k < 0 || pc.Changed[k].Kind != diff.BlocksChange {
		t.Errorf("64 B phase 0 of %s: %+v, want a change of 128-byte blocks", coarse, pc.Changed)
	}
	if !slices.Contains(pc.Same, diff.Case{Line: 128, Phase: 64, NewPhase: 64}) {
		t.Errorf("cases where nothing changes for %s: %v, want 128 B phase 64", coarse, pc.Same)
	}
}

// TestGate checks the rule on the kernel's history: the v6.13 reorder
// costs the tick (250/s) more lines but gains MONOTONIC_RAW's hot readers
// a line, which outweighs it but for -strict; the 2023 padding costs hot
// readers a 128-byte block, which nothing outweighs.
func TestGate(t *testing.T) {
	r, err := diff.Compare(analyze(t, "tk_core@v6.1"), analyze(t, "tk_data@v6.13"), lines)
	if err != nil {
		t.Fatal(err)
	}
	if r.Regressed() {
		t.Errorf("v6.1 -> v6.13 regresses at %v", r.WorseAt())
	}
	var tick, raw *diff.PathChange
	for i, c := range r.Judgement.Changes {
		switch c.Path {
		case "tick":
			tick = &r.Judgement.Changes[i]
		case "ktime_get_raw_ts64":
			raw = &r.Judgement.Changes[i]
		}
	}
	if tick == nil || !tick.Worse || !tick.Outweighed || tick.Rate != "250/s" {
		t.Errorf("tick: %+v, want worse and outweighed", tick)
	}
	if raw == nil || raw.Worse || !raw.Hot {
		t.Errorf("ktime_get_raw_ts64: %+v, want a hot path that gains", raw)
	}
	if !slices.Equal(r.Judgement.BetterAt, []int64{64, 128}) {
		t.Errorf("better at %v, want 64 and 128", r.Judgement.BetterAt)
	}
	if strict := r.Judge(true); !slices.Equal(strict.RegressedAt, []int64{64, 128}) {
		t.Errorf("-strict: regressed at %v, want 64 and 128", strict.RegressedAt)
	}
	g, err := diff.Compare(analyze(t, "tk_core@v6.1"), analyze(t, "tk_core@v6.1+guohui"), lines)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range g.Judgement.Changes {
		if c.Worse && (!c.Hot || c.Outweighed) {
			t.Errorf("2023 padding: %+v", c)
		}
	}
	if !g.Regressed() {
		t.Error("the 2023 padding passes the gate")
	}
}

// TestScenarioV613 diffs the timekeeping state whole: in v6.1 the tick
// also writes shadow_timekeeper and takes timekeeper_lock, separate
// objects, so it touched 11 lines at 64 B (5 of tk_core, 5 of the shadow,
// the lock's), and 9 from v6.13, where both are members of tk_data.
func TestScenarioV613(t *testing.T) {
	r, err := diff.Compare(analyze(t, "tk@v6.1"), analyze(t, "tk@v6.13"), lines)
	if err != nil {
		t.Fatal(err)
	}
	if got := row(t, r, "tick", 64, 0); len(got.Old.Lines) != 11 || len(got.New.Lines) != 9 || got.Verdict != diff.Better {
		t.Errorf("tick at 64/0: %d -> %d lines, %s; want 11 -> 9, better", len(got.Old.Lines), len(got.New.Lines), got.Verdict)
	}
	if r.Regressed() {
		t.Errorf("tk@v6.1 -> tk@v6.13 regresses at %v", r.WorseAt())
	}
	want := []diff.Relocation{{Old: "shadow_timekeeper", New: "tk_core.shadow_timekeeper", Offset: 288}, {Old: "timekeeper_lock", New: "tk_core.lock", Offset: 568}}
	if !slices.Equal(r.Relocations, want) {
		t.Errorf("relocations %+v, want %+v", r.Relocations, want)
	}
	if len(r.Removed) != 0 {
		t.Errorf("removed %v, want none: the shadow and the lock moved into tk_core", r.Removed)
	}
}
