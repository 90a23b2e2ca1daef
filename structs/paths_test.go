package structs_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/structs"
)

// pathModel is a model's layout with its resolved access paths.
type pathModel struct {
	s       *layout.Struct
	paths   map[string]*access.Path
	touches map[string][]access.Touch
}

// loadPaths looks the model up, fetches its paths and resolves every one
// against the layout, failing the test on any error.
func loadPaths(t *testing.T, name, arch string) pathModel {
	t.Helper()
	s, err := structs.Lookup(name, arch)
	if err != nil {
		t.Fatalf("Lookup(%q, %s): %v", name, arch, err)
	}
	paths, err := structs.Paths(name, arch)
	if err != nil {
		t.Fatalf("Paths(%q, %s): %v", name, arch, err)
	}
	if len(paths) == 0 {
		t.Fatalf("%s has no access paths", name)
	}
	m := pathModel{s: s, paths: map[string]*access.Path{}, touches: map[string][]access.Touch{}}
	for _, p := range paths {
		if _, dup := m.paths[p.Name]; dup {
			t.Fatalf("%s: path %s declared twice", name, p.Name)
		}
		touches, err := access.Resolve(p, s)
		if err != nil {
			t.Fatalf("%s (%s): %v", name, arch, err)
		}
		m.paths[p.Name] = p
		m.touches[p.Name] = touches
	}
	return m
}

// lines returns the sorted line indexes that the named path's accesses
// touch, at line size line and phase, computed from the resolved byte
// ranges; keep selects the accesses (nil: all).
func (m pathModel) lines(t *testing.T, path string, line, phase int64, keep func(access.Touch) bool) []int64 {
	t.Helper()
	touches, ok := m.touches[path]
	if !ok {
		t.Fatalf("%s has no path %s (has %v)", m.s.Name, path, slices.Sorted(maps.Keys(m.paths)))
	}
	set := map[int64]bool{}
	for _, tc := range touches {
		if keep != nil && !keep(tc) {
			continue
		}
		sp := layout.SpanOf(tc.Offset, tc.End-tc.Offset, line, phase)
		for l := sp.First; l <= sp.Last; l++ {
			set[l] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// memberLines returns the lines a member of the layout occupies.
func (m pathModel) memberLines(t *testing.T, member string, line, phase int64) []int64 {
	t.Helper()
	f := m.s.Field(member)
	if f == nil {
		t.Fatalf("%s has no member %s", m.s.Name, member)
	}
	sp := f.Lines(line, phase)
	var out []int64
	for l := sp.First; l <= sp.Last; l++ {
		out = append(out, l)
	}
	return out
}

func upTo(n int64) []int64 {
	var out []int64
	for l := int64(0); l <= n; l++ {
		out = append(out, l)
	}
	return out
}

// The paths each model must declare, with the lines each touches at 64
// bytes, phase 0: kernel_truth.md §3's table ("lines, v6.1 (64B)" and
// "v6.13+ (64B)"), the 6860d28ccb23 commit message ("Access to
// CLOCK_MONOTONIC_RAW uses cachelines 0 + 1 + 3" before the reorder) and
// §0.1 (every tick rewrites the whole live timekeeper, all 5 lines at 64
// bytes). The +guohui and +rt rows are the same paths over those layouts'
// offsets: Guo Hui's padding moves xtime_sec to core 128 (line 2, as
// tglx objected); the 16-byte PREEMPT_RT seqcount moves xtime_sec to core
// 128 and clock_was_set_seq..offs_tai into line 2.
var pathLines64 = map[string]map[string][]int64{
	"tk_core@v6.1": {
		"ktime_get":                    {0},
		"ktime_get_real_ts64":          {0, 1},
		"ktime_get_coarse_real_ts64":   {0, 1},
		"ktime_get_raw_ts64":           {0, 1, 3},
		"ktime_get_update_offsets_now": {0, 2, 3},
		"tick":                         upTo(4),
	},
	"tk_core@v6.1+guohui": {
		"ktime_get":                    {0},
		"ktime_get_real_ts64":          {0, 2},
		"ktime_get_coarse_real_ts64":   {0, 2},
		"ktime_get_raw_ts64":           {0, 1, 3},
		"ktime_get_update_offsets_now": {0, 2, 3},
		"tick":                         upTo(4),
	},
	"tk_core@v6.1+rt": {
		"ktime_get":                    {0},
		"ktime_get_real_ts64":          {0, 2},
		"ktime_get_coarse_real_ts64":   {0, 2},
		"ktime_get_raw_ts64":           {0, 1, 3},
		"ktime_get_update_offsets_now": {0, 2, 3},
		"tick":                         upTo(4),
	},
	// v6.13+: the tick also takes tk_core.lock and updates the shadow, so
	// it touches every line of tk_data (576 bytes: 9 lines; 640: 10).
	"tk_data@v6.13": newReaders(false, upTo(8)),
	"tk_data@v6.15": newReaders(false, upTo(8)),
	"tk_data@v6.17": newReaders(false, upTo(8)),
	"tk_data@v7.1":  newReaders(true, upTo(9)),
	"tk_fast@v6.1": {
		"ktime_get_mono_fast_ns": {0},
		"tick":                   {0, 1},
	},
	"mg_floor@v6.13": {
		"ktime_get_coarse_real_ts64_mg": {0},
		"ktime_get_real_ts64_mg":        {0},
	},
	// The v6.1 tick's other objects: the whole shadow (280 bytes from
	// phase 0), the lock's word.
	"shadow_timekeeper@v6.1":        {"tick": {0, 1, 2, 3, 4}},
	"shadow_timekeeper@v6.1+guohui": {"tick": {0, 1, 2, 3, 4}},
	"timekeeper_lock@v6.1":          {"tick": {0}},
}

func newReaders(v71 bool, tick []int64) map[string][]int64 {
	m := map[string][]int64{
		"ktime_get":                     {0},
		"ktime_get_real_ts64":           {0, 1},
		"ktime_get_coarse_real_ts64":    {0, 1},
		"ktime_get_raw_ts64":            {0, 2},
		"ktime_get_update_offsets_now":  {0, 1, 3},
		"ktime_get_coarse_real_ts64_mg": {0, 1},
		"ktime_get_real_ts64_mg":        {0, 1},
		"tick":                          tick,
	}
	if v71 {
		m["ktime_get_update_offsets_now"] = []int64{0, 1, 3, 4}
		m["ktime_expiry_to_cycles"] = []int64{0, 3}
	}
	return m
}

// TestPathsLines resolves every path of every model on every arch and
// checks the lines it touches at 64 bytes.
func TestPathsLines(t *testing.T) {
	if got, want := structs.Names(), slices.Sorted(maps.Keys(pathLines64)); !slices.Equal(got, want) {
		t.Fatalf("models %v, the test covers %v: give every model its paths and a row here", got, want)
	}
	for _, arch := range structs.Archs {
		for _, name := range structs.Names() {
			m := loadPaths(t, name, arch)
			want := pathLines64[name]
			if got := slices.Sorted(maps.Keys(m.paths)); !slices.Equal(got, slices.Sorted(maps.Keys(want))) {
				t.Errorf("%s (%s): paths %v, want %v", name, arch, got, slices.Sorted(maps.Keys(want)))
			}
			for path, lines := range want {
				if _, ok := m.paths[path]; !ok {
					continue
				}
				if got := m.lines(t, path, 64, 0, nil); !slices.Equal(got, lines) {
					t.Errorf("%s (%s): %s touches lines %v at 64 bytes, want %v", name, arch, path, got, lines)
				}
			}
		}
	}
}

// TestPathsTickRewritesTimekeeper: the tick writes every line of the live
// timekeeper and the sequence count (§0.1), and at 64 bytes that is lines
// 0..4 in every version.
func TestPathsTickRewritesTimekeeper(t *testing.T) {
	for _, name := range structs.Names() {
		if !strings.HasPrefix(name, "tk_core@") && !strings.HasPrefix(name, "tk_data@") {
			continue
		}
		m := loadPaths(t, name, "amd64")
		writes := func(tc access.Touch) bool { return tc.Op.Writes() }
		written := m.lines(t, "tick", 64, 0, writes)
		for _, l := range m.memberLines(t, "timekeeper", 64, 0) {
			if !slices.Contains(written, l) {
				t.Errorf("%s: the tick does not write line %d of the live timekeeper (writes %v)", name, l, written)
			}
		}
		if got := m.memberLines(t, "timekeeper", 64, 0); !slices.Equal(got, upTo(4)) {
			t.Errorf("%s: live timekeeper on lines %v at 64 bytes, want 0..4", name, got)
		}
		var seqWritten, tkWritten bool
		for _, tc := range m.touches["tick"] {
			seqWritten = seqWritten || tc.Op == access.SeqWrite && (tc.Member == "seq" || tc.Member == "seq.seqcount")
			tkWritten = tkWritten || tc.Op == access.Write && tc.Member == "timekeeper"
		}
		if !seqWritten || !tkWritten {
			t.Errorf("%s: tick must seqwrite seq and write the whole timekeeper: %s", name, m.paths["tick"])
		}
		if p := m.paths["tick"]; p.CPUs != 1 || p.Rate != 250 {
			t.Errorf("%s: tick runs on %s CPUs at %s, want 1 at 250/s", name, p.CPUsString(), p.RateString())
		}
	}
}

// TestPathsReaders: every seqcount reader touches line 0 (§0.2); in v6.13
// through v7.0 no reader touches line 4, the line the live timekeeper
// shares with the shadow (§2); in v7.1 only ktime_get_update_offsets_now
// does, through next_leap_ktime. From v6.15 the coarse reader touches only
// seq in line 0 (§3).
func TestPathsReaders(t *testing.T) {
	for _, name := range structs.Names() {
		m := loadPaths(t, name, "amd64")
		for pname, p := range m.paths {
			if p.Writes() && pname != "ktime_get_real_ts64_mg" {
				continue
			}
			if pname != "tick" && p.CPUs != access.AllCPUs {
				t.Errorf("%s: reader %s runs on %s CPUs, want all", name, pname, p.CPUsString())
			}
			var seqread bool
			for _, tc := range m.touches[pname] {
				seqread = seqread || tc.Op == access.SeqRead
			}
			lines := m.lines(t, pname, 64, 0, nil)
			if seqread && !slices.Contains(lines, 0) {
				t.Errorf("%s: seqcount reader %s misses line 0: %v", name, pname, lines)
			}
			if !strings.HasPrefix(name, "tk_data@") {
				continue
			}
			on4 := slices.Contains(lines, 4)
			want4 := name == "tk_data@v7.1" && pname == "ktime_get_update_offsets_now"
			if on4 != want4 {
				t.Errorf("%s: reader %s touches line 4: %v, want %v (lines %v)", name, pname, on4, want4, lines)
			}
			if want4 {
				notLeap := func(tc access.Touch) bool { return tc.Member != "timekeeper.next_leap_ktime" }
				if slices.Contains(m.lines(t, pname, 64, 0, notLeap), 4) {
					t.Errorf("%s: %s reaches line 4 through something other than next_leap_ktime", name, pname)
				}
			}
		}
	}
	for _, name := range []string{"tk_data@v6.15", "tk_data@v6.17", "tk_data@v7.1"} {
		m := loadPaths(t, name, "amd64")
		data := func(tc access.Touch) bool { return tc.Op != access.SeqRead }
		if got := m.lines(t, "ktime_get_coarse_real_ts64", 64, 0, data); !slices.Equal(got, []int64{1}) {
			t.Errorf("%s: coarse REALTIME data on lines %v, want only line 1 (seq alone in line 0)", name, got)
		}
	}
}

// TestPathsCoarse128 is the Guo Hui discussion at 128 bytes: tk_core is
// 64-byte aligned, so it starts at phase 0 or 64 of a 128-byte line. In
// v6.1 ktime_get_coarse_real_ts64 touches one line at phase 0 (seq,
// tkr_mono and xtime_sec share it, §0.3) and two at phase 64; with the
// padding it touches two at both phases.
func TestPathsCoarse128(t *testing.T) {
	for _, tc := range []struct {
		model   string
		phase   int64
		nlines  int
		inLines []int64
	}{
		{"tk_core@v6.1", 0, 1, []int64{0}},
		{"tk_core@v6.1", 64, 2, []int64{0, 1}},
		{"tk_core@v6.1+guohui", 0, 2, []int64{0, 1}},
		{"tk_core@v6.1+guohui", 64, 2, []int64{0, 1}},
	} {
		for _, arch := range structs.Archs {
			m := loadPaths(t, tc.model, arch)
			got := m.lines(t, "ktime_get_coarse_real_ts64", 128, tc.phase, nil)
			if len(got) != tc.nlines || !slices.Equal(got, tc.inLines) {
				t.Errorf("%s (%s) phase %d: ktime_get_coarse_real_ts64 touches 128-byte lines %v, want %d line(s) %v",
					tc.model, arch, tc.phase, got, tc.nlines, tc.inLines)
			}
		}
	}
}

// TestPathsMerge: paths with the same name are one kernel function on
// several objects, so the names must agree across models: the multigrain
// paths appear on every tk_data model and on mg_floor, where
// ktime_get_real_ts64_mg is the only writer (a cmpxchg of counter).
func TestPathsMerge(t *testing.T) {
	floor := loadPaths(t, "mg_floor@v6.13", "amd64")
	var ops []string
	for _, tc := range floor.touches["ktime_get_real_ts64_mg"] {
		ops = append(ops, fmt.Sprintf("%s=%s", tc.Op, tc.Member))
	}
	if want := []string{"read=counter", "cas=counter"}; !slices.Equal(ops, want) {
		t.Errorf("mg_floor ktime_get_real_ts64_mg does %v, want %v", ops, want)
	}
	if floor.paths["ktime_get_coarse_real_ts64_mg"].Writes() {
		t.Errorf("mg_floor: ktime_get_coarse_real_ts64_mg must only read the floor")
	}
	names := map[string]bool{}
	for _, name := range structs.Names() {
		m := loadPaths(t, name, "amd64")
		for pname, p := range m.paths {
			names[pname] = true
			if !strings.Contains(p.Doc, "kernel/time/timekeeping.c") || !strings.Contains(p.Doc, "()") ||
				!(strings.Contains(p.Doc, "v6.") || strings.Contains(p.Doc, "v7.")) {
				t.Errorf("%s: path %s's note does not cite function, file and version: %q", name, pname, p.Doc)
			}
		}
		if strings.HasPrefix(name, "tk_data@") {
			for _, mg := range []string{"ktime_get_coarse_real_ts64_mg", "ktime_get_real_ts64_mg"} {
				if _, ok := m.paths[mg]; !ok {
					t.Errorf("%s: no %s path", name, mg)
				}
			}
		}
	}
	// The tick on tk_fast is the same CPU as the tick on tk_core.
	fast := loadPaths(t, "tk_fast@v6.1", "amd64")
	if p := fast.paths["tick"]; p.CPUs != 1 || p.Rate != 250 {
		t.Errorf("tk_fast tick: %s", p)
	}
	allowed := []string{
		"ktime_get", "ktime_get_real_ts64", "ktime_get_coarse_real_ts64", "ktime_get_raw_ts64",
		"ktime_get_update_offsets_now", "tick", "ktime_get_coarse_real_ts64_mg", "ktime_get_real_ts64_mg",
		"ktime_expiry_to_cycles", "ktime_get_mono_fast_ns",
	}
	for n := range names {
		if !slices.Contains(allowed, n) {
			t.Errorf("path name %s is not one of the agreed names %v", n, allowed)
		}
	}
}

// TestPathsV6_13Tick: in v6.13+ the tick takes tk_core.lock (a cmpxchg on
// its line) and updates the shadow outside the seqcount, writing the
// members §3 steps 2, 3 and 5 list.
func TestPathsV6_13Tick(t *testing.T) {
	for _, name := range []string{"tk_data@v6.13", "tk_data@v6.15", "tk_data@v6.17", "tk_data@v7.1"} {
		m := loadPaths(t, name, "amd64")
		ops := map[string][]access.Op{}
		for _, tc := range m.touches["tick"] {
			ops[tc.Member] = append(ops[tc.Member], tc.Op)
		}
		want := []string{"tkr_mono.cycle_last", "tkr_raw.cycle_last", "tkr_mono.xtime_nsec", "tkr_raw.xtime_nsec",
			"raw_sec", "ntp_error", "xtime_sec", "skip_second_overflow", "ntp_tick", "ntp_err_mult", "tkr_mono.mult",
			"xtime_interval", "next_leap_ktime", "tkr_mono.base", "ktime_sec", "tkr_raw.base", "tkr_mono.base_real"}
		if name != "tk_data@v6.13" {
			want = append(want, "coarse_nsec")
		}
		if name == "tk_data@v7.1" {
			want = append(want, "cs_ns_to_cyc_mult", "cs_ns_to_cyc_maxns")
		}
		for _, w := range want {
			if !slices.Contains(ops["shadow_timekeeper."+w], access.Write) {
				t.Errorf("%s: tick does not write shadow_timekeeper.%s", name, w)
			}
		}
		if !slices.Contains(ops["lock"], access.CAS) {
			t.Errorf("%s: tick does not take tk_core.lock", name)
		}
		if !slices.Contains(ops["timekeeper.cycle_interval"], access.Read) {
			t.Errorf("%s: tick does not read real_tk->cycle_interval", name)
		}
	}
}

func TestPathsErrors(t *testing.T) {
	if _, err := structs.Paths("tk_core@v9", "amd64"); err == nil || !strings.Contains(err.Error(), "tk_core@v6.1") {
		t.Errorf("unknown model: %v", err)
	}
	if _, err := structs.Paths("tk_core@v6.1", "386"); err == nil || !strings.Contains(err.Error(), "386") {
		t.Errorf("unknown arch: %v", err)
	}
	// Paths hands out copies.
	a, _ := structs.Paths("tk_core@v6.1", "amd64")
	a[0].Name = "changed"
	a[0].Accesses[0].Member = "changed"
	b, _ := structs.Paths("tk_core@v6.1", "amd64")
	if b[0].Name == "changed" || b[0].Accesses[0].Member == "changed" {
		t.Errorf("Paths returned shared state")
	}
}
