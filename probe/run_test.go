package probe

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mglayout/mglayout/layout/sharing"
)

func mgFloor(t testing.TB) []Variant {
	return []Variant{{Name: "mg_floor@v6.13", Objects: []*sharing.Object{kernel(t, "mg_floor@v6.13")}}}
}

// mappings counts the process's memory mappings and their bytes. The
// bytes matter: the kernel merges an anonymous mapping with a neighbour of
// the same protection, so a leaked arena need not add a line.
func mappings(t testing.TB) (n int, size uintptr) {
	data, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Skipf("no /proc/self/maps to count mappings: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var lo, hi uintptr
		if _, err := fmt.Sscanf(line, "%x-%x", &lo, &hi); err == nil {
			n++
			size += hi - lo
		}
	}
	return n, size
}

// TestNoLeaks: after Run (native and emulated) and Sweep, the goroutines
// are gone and the arenas unmapped.
func TestNoLeaks(t *testing.T) {
	cpus := usable(t)
	ctx := context.Background()
	once := func() {
		t.Helper()
		o := Options{Line: 64, Phase: -1, Duration: MinDuration, Count: 2, CPUs: cpus[:2]}
		if _, err := Run(ctx, mgFloor(t), o); err != nil {
			t.Fatal(err)
		}
		o.Line, o.Emulate, o.HostLine, o.Spacing = 128, 128, 64, 128
		if _, err := Run(ctx, mgFloor(t), o); err != nil {
			t.Fatal(err)
		}
		if _, err := Sweep(ctx, SweepOptions{Max: 64, Step: 32, Far: 4096, Duration: MinDuration, Count: 2, CPUs: cpus[:2]}); err != nil {
			t.Fatal(err)
		}
	}
	// Threads come and go with every run (a locked thread exits with its
	// worker), and with cgo in the binary libc caches their stacks, so
	// the mappings of the process wander a little; an arena that is not
	// unmapped grows them every time. So: warm up, then try a few times
	// for a run after which everything is back where it was.
	once()
	once()
	settle := func() (int, int, uintptr) {
		runtime.GC()
		m, size := mappings(t)
		return runtime.NumGoroutine(), m, size
	}
	var report string
	for attempt := range 5 {
		g0, m0, s0 := settle()
		once()
		var g, m int
		var s uintptr
		for range 20 {
			if g, m, s = settle(); g <= g0 && m <= m0 && s <= s0 {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
		report = fmt.Sprintf("attempt %d: %d goroutines before, %d after; %d mappings of %d bytes in /proc/self/maps before, %d of %d after",
			attempt+1, g0, g, m0, s0, m, s)
		t.Log(report)
	}
	buf := make([]byte, 1<<16)
	buf = buf[:runtime.Stack(buf, true)]
	t.Errorf("after Run and Sweep, goroutines or mappings never came back to what they were (%s); goroutines:\n%s", report, buf)
}

// TestArenaUnmapped: an arena's pages leave /proc/self/maps on close.
func TestArenaUnmapped(t *testing.T) {
	a, err := newArena(7 * pageSize)
	if err != nil {
		t.Fatal(err)
	}
	base := a.base()
	addr := fmt.Sprintf("%x-", base)
	data, _ := os.ReadFile("/proc/self/maps")
	if !bytes.Contains(data, []byte(addr)) && !containsRange(data, base) {
		t.Skipf("the arena at %s does not show in /proc/self/maps", addr)
	}
	if err := a.close(); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile("/proc/self/maps")
	if containsRange(data, base) {
		t.Errorf("the arena at %#x is still mapped after close", base)
	}
	if err := a.close(); err != nil {
		t.Errorf("a second close: %v", err)
	}
}

// containsRange reports whether a mapping of maps holds addr.
func containsRange(maps []byte, addr uintptr) bool {
	for _, line := range strings.Split(string(maps), "\n") {
		var lo, hi uintptr
		if _, err := fmt.Sscanf(line, "%x-%x", &lo, &hi); err == nil && lo <= addr && addr < hi {
			return true
		}
	}
	return false
}

// TestRunErrors: bad options are refused before anything runs, each with
// one line that names the input.
func TestRunErrors(t *testing.T) {
	mask, err := affinity()
	if err != nil {
		t.Skip(err)
	}
	outside := slices.Max(mask) + 1
	ok := Options{Line: 64, Phase: -1, Duration: 50 * time.Millisecond, Count: 3, CPUs: mask}
	tk := []Variant{{Name: "tk_core@v6.1", Objects: []*sharing.Object{kernel(t, "tk_core@v6.1")}}}
	for _, c := range []struct {
		name   string
		edit   func(*Options)
		want   []string
		needs2 bool // checked after the CPUs
	}{
		{"short", func(o *Options) { o.Duration = MinDuration - time.Millisecond }, []string{"too short", "9ms", "10ms"}, false},
		{"zero", func(o *Options) { o.Duration = 0 }, []string{"too short"}, false},
		{"count0", func(o *Options) { o.Count = 0 }, []string{"-count 0"}, false},
		{"outside", func(o *Options) { o.CPUs = []int{mask[0], outside} }, []string{fmt.Sprintf("CPU %d", outside), "affinity mask"}, false},
		{"one", func(o *Options) { o.CPUs = mask[:1] }, []string{"at least 2 CPUs"}, false},
		{"phase", func(o *Options) { o.Phase = 3 }, []string{"tk_core@v6.1", "3 bytes", "64-byte line", "-phase"}, true},
		{"phase128", func(o *Options) { o.Line, o.Phase = 128, 32 }, []string{"tk_core@v6.1", "[0 64]"}, true},
		{"paths", func(o *Options) { o.Paths = []string{"nosuchpath"} }, []string{"-measure"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.needs2 {
				usable(t)
			}
			o := ok
			c.edit(&o)
			_, err := Run(context.Background(), tk, o)
			checkErr(t, "Run "+c.name, err, c.want)
		})
	}
}

func checkErr(t *testing.T, what string, err error, want []string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error", what)
		return
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%s: %q does not mention %q", what, err, w)
		}
	}
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("%s: the error is not one line: %q", what, err)
	}
}

// TestRunTooManyWriters: measuring a path beside two writing paths needs
// three CPUs.
func TestRunTooManyWriters(t *testing.T) {
	cpus := usable(t)
	v := []Variant{{Name: "tk_data@v6.13,mg_floor@v6.13", Objects: []*sharing.Object{kernel(t, "tk_data@v6.13"), kernel(t, "mg_floor@v6.13")}}}
	o := Options{Line: 64, Phase: -1, Duration: 50 * time.Millisecond, Count: 3, CPUs: cpus[:2], Paths: []string{"ktime_get"}}
	_, err := Run(context.Background(), v, o)
	checkErr(t, "two writers on 2 CPUs", err, []string{"tk_data@v6.13,mg_floor@v6.13", "ktime_get", "needs 3 CPUs", "2 are usable"})
	// Choosing one writer makes it fit.
	o.Writers, o.Duration, o.Count = []string{"tick"}, MinDuration, 1
	if _, err := Run(context.Background(), v, o); err != nil {
		t.Errorf("with -writers tick: %v", err)
	}
}

// TestCPUsDistinct: the same CPU named twice is not two CPUs; the two
// workers of a sweep on one CPU share no line across CPUs.
func TestCPUsDistinct(t *testing.T) {
	cpus := usable(t)
	twice := []int{cpus[0], cpus[0]}
	_, err := Sweep(context.Background(), SweepOptions{Max: 0, Step: 8, Far: 4096, Duration: MinDuration, Count: 1, CPUs: twice})
	if err == nil {
		t.Errorf("Sweep with CPUs %v ran the writer and the reader on one CPU; want an error (probe/experiment.go usableCPUs does not reject repeated CPUs)", twice)
	}
	_, err = Run(context.Background(), mgFloor(t), Options{Line: 64, Phase: -1, Duration: MinDuration, Count: 1, CPUs: twice})
	if err == nil {
		t.Errorf("Run with CPUs %v accepted them as two CPUs; want an error", twice)
	}
}

func TestSweepErrors(t *testing.T) {
	mask, err := affinity()
	if err != nil {
		t.Skip(err)
	}
	outside := slices.Max(mask) + 1
	ok := SweepOptions{Max: 64, Step: 8, Far: 4096, Duration: 50 * time.Millisecond, Count: 3, CPUs: mask}
	for _, c := range []struct {
		name string
		edit func(*SweepOptions)
		want []string
	}{
		{"short", func(o *SweepOptions) { o.Duration = time.Millisecond }, []string{"too short", "1ms"}},
		{"count0", func(o *SweepOptions) { o.Count = 0 }, []string{"-count"}},
		{"step", func(o *SweepOptions) { o.Step = 7 }, []string{"multiple of 8"}},
		{"far", func(o *SweepOptions) { o.Far = 64 }, []string{"far"}},
		{"outside", func(o *SweepOptions) { o.CPUs = []int{mask[0], outside} }, []string{fmt.Sprintf("CPU %d", outside)}},
		{"one", func(o *SweepOptions) { o.CPUs = mask[:1] }, []string{"at least 2 CPUs"}},
	} {
		o := ok
		c.edit(&o)
		_, err := Sweep(context.Background(), o)
		checkErr(t, "Sweep "+c.name, err, c.want)
	}
}

// cancelDuring runs f with a context that is cancelled 50ms into the run
// whose progress line starts with at, and returns how long f took to
// return after the cancellation.
func cancelDuring(t *testing.T, at string, f func(context.Context, func(Progress)) bool) time.Duration {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var cancelled atomic.Int64
	progress := func(p Progress) {
		if strings.HasPrefix(p.String(), at) {
			go func() {
				time.Sleep(50 * time.Millisecond)
				cancelled.Store(time.Now().UnixNano())
				cancel()
			}()
		}
	}
	if !f(ctx, progress) {
		return 0
	}
	at0 := cancelled.Load()
	if at0 == 0 {
		t.Fatalf("the run %q never started", at)
	}
	return time.Since(time.Unix(0, at0))
}

// TestSweepInterrupted: cancelled during a run of the second round, Sweep
// returns at once with the first round only.
func TestSweepInterrupted(t *testing.T) {
	cpus := usable(t)
	var r *SweepResult
	took := cancelDuring(t, "round 2/5, run 1/2", func(ctx context.Context, progress func(Progress)) bool {
		var err error
		r, err = Sweep(ctx, SweepOptions{Max: 0, Step: 8, Far: 4096, Duration: 400 * time.Millisecond, Count: 5, CPUs: cpus[:2], Progress: progress})
		if err != nil {
			t.Fatal(err)
		}
		return true
	})
	if took > time.Second {
		t.Errorf("Sweep returned %v after the cancellation, want within a second", took)
	}
	checkSweepRounds(t, r, 1)
}

// TestSweepInterruptedLastRun: cancelled during the last run of the last
// round, that round is incomplete: its cut-short run must not count as a
// sample, and the result must say it was interrupted.
func TestSweepInterruptedLastRun(t *testing.T) {
	cpus := usable(t)
	var r *SweepResult
	cancelDuring(t, "round 2/2, run 2/2", func(ctx context.Context, progress func(Progress)) bool {
		var err error
		r, err = Sweep(ctx, SweepOptions{Max: 0, Step: 8, Far: 4096, Duration: 300 * time.Millisecond, Count: 2, CPUs: cpus[:2], Progress: progress})
		if err != nil {
			t.Fatal(err)
		}
		return true
	})
	checkSweepRounds(t, r, 1)
}

func checkSweepRounds(t *testing.T, r *SweepResult, rounds int) {
	t.Helper()
	if !r.Interrupted || r.Rounds != rounds {
		t.Errorf("Interrupted %v after %d rounds; want interrupted after %d (probe/sweep.go: a run cut short by the cancellation is kept when it ends a round)", r.Interrupted, r.Rounds, rounds)
	}
	for _, p := range append(slices.Clone(r.Points), r.Far) {
		if len(p.Writer) != r.Rounds || len(p.Reader) != r.Rounds {
			t.Errorf("distance %d: %d writer and %d reader samples after %d rounds", p.Distance, len(p.Writer), len(p.Reader), r.Rounds)
		}
	}
}

// TestRunInterrupted: the same for Run.
func TestRunInterrupted(t *testing.T) {
	cpus := usable(t)
	for _, c := range []struct {
		at     string
		count  int
		rounds int
	}{
		{"round 2/4, run 1/2", 4, 1},
		{"round 2/2, run 2/2", 2, 1}, // the last run of the last round
	} {
		var r *Result
		took := cancelDuring(t, c.at, func(ctx context.Context, progress func(Progress)) bool {
			o := Options{Line: 64, Phase: -1, Duration: 300 * time.Millisecond, Count: c.count, CPUs: cpus[:2],
				Paths: []string{"ktime_get_coarse_real_ts64_mg"}, Progress: progress}
			var err error
			r, err = Run(ctx, mgFloor(t), o)
			if err != nil {
				t.Fatal(err)
			}
			return true
		})
		if took > time.Second {
			t.Errorf("%s: Run returned %v after the cancellation, want within a second", c.at, took)
		}
		if !r.Interrupted || r.Rounds != c.rounds {
			t.Errorf("cancelled in %q: Interrupted %v after %d rounds, want interrupted after %d (probe/experiment.go: a run cut short by the cancellation is kept when it ends a round)",
				c.at, r.Interrupted, r.Rounds, c.rounds)
		}
		for _, cs := range r.Cases {
			if len(cs.Samples) != r.Rounds || len(cs.Retries) != r.Rounds {
				t.Errorf("%s: %s has %d samples, %d retry counts after %d rounds", c.at, cs.Name(), len(cs.Samples), len(cs.Retries), r.Rounds)
			}
			for w, s := range cs.Writers {
				if len(s) != r.Rounds {
					t.Errorf("%s: %s: writer %s has %d samples after %d rounds", c.at, cs.Name(), w, len(s), r.Rounds)
				}
			}
		}
	}
}

// TestRunShape: a short real run measures every case of every round,
// each path beside the variant's writers and alone, on the CPUs asked
// for, and restores GOMAXPROCS.
func TestRunShape(t *testing.T) {
	cpus := usable(t)
	procs := runtime.GOMAXPROCS(0)
	var progress []string
	o := Options{Line: 64, Phase: -1, Duration: MinDuration, Count: 2, CPUs: cpus[:2], Progress: func(p Progress) { progress = append(progress, p.String()) }}
	r, err := Run(context.Background(), mgFloor(t), o)
	if err != nil {
		t.Fatal(err)
	}
	if got := runtime.GOMAXPROCS(0); got != procs {
		t.Errorf("GOMAXPROCS %d after Run, was %d", got, procs)
	}
	if r.Rounds != 2 || r.Interrupted || len(r.Cases) != 4 || len(progress) != 8 {
		t.Fatalf("%d rounds, interrupted %v, %d cases, %d progress lines; want 2, false, 4, 8", r.Rounds, r.Interrupted, len(r.Cases), len(progress))
	}
	for _, c := range r.Cases {
		if len(c.Samples) != 2 || len(c.Retries) != 2 {
			t.Errorf("%s: %d samples, %d retry counts", c.Name(), len(c.Samples), len(c.Retries))
		}
		for _, s := range c.Samples {
			if !(s > 0) {
				t.Errorf("%s: sample %v", c.Name(), s)
			}
		}
		// The coarse reader runs beside the CAS writer; the CAS path
		// has no other writer beside it.
		wantWriters := 0
		if !c.Alone && c.Path.Name == "ktime_get_coarse_real_ts64_mg" {
			wantWriters = 1
		}
		if len(c.Writers) != wantWriters {
			t.Errorf("%s: writers %v, want %d", c.Name(), c.Writers, wantWriters)
		}
	}
}

// TestEmulateLine checks the emulation options: the target line, the
// spacing twice the host's line by default, and the targets refused.
func TestEmulateLine(t *testing.T) {
	o := Options{HostLine: 64}
	if err := o.EmulateLine(128, 0); err != nil || o.Line != 128 || o.Emulate != 128 || o.Spacing != 128 {
		t.Errorf("EmulateLine(128, 0) = %v with line %d, emulate %d, spacing %d; want 128, 128, 128", err, o.Line, o.Emulate, o.Spacing)
	}
	if err := o.EmulateLine(256, 512); err != nil || o.Spacing != 512 {
		t.Errorf("EmulateLine(256, 512) = %v, spacing %d", err, o.Spacing)
	}
	for _, target := range []int64{64, 96, 8} {
		if err := (&Options{HostLine: 64}).EmulateLine(target, 0); err == nil {
			t.Errorf("EmulateLine(%d) on a 64-byte host: no error", target)
		}
	}
}
