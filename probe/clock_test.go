package probe

import (
	"context"
	"os"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestClocks checks that every row present has a positive cost per call
// in every round, and every missing row a reason; no timing is asserted.
func TestClocks(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the clock rows are Linux's")
	}
	r, err := Clocks(context.Background(), ClockOptions{Duration: 20 * time.Millisecond, Count: 2})
	if err != nil {
		t.Fatal(err)
	}
	if r.Rounds != 2 || r.Interrupted {
		t.Fatalf("rounds %d, interrupted %v; want 2 complete rounds", r.Rounds, r.Interrupted)
	}
	names := map[string]*ClockRow{}
	for _, row := range r.Rows {
		names[row.Name] = row
		if row.Missing != "" {
			if len(row.Samples) != 0 {
				t.Errorf("%s is missing (%s) but has samples %v", row.Name, row.Missing, row.Samples)
			}
			continue
		}
		if len(row.Samples) != r.Rounds {
			t.Errorf("%s: %d samples, want one per round (%d)", row.Name, len(row.Samples), r.Rounds)
		}
		for _, s := range row.Samples {
			if !(s > 0) {
				t.Errorf("%s: cost per call %v, want > 0", row.Name, s)
			}
		}
		if row.Via != viaVDSO && row.Via != viaSyscall {
			t.Errorf("%s: via %q", row.Name, row.Via)
		}
	}
	for _, want := range []string{"time.Now()", "unix.ClockGettime(CLOCK_REALTIME)", "unix.ClockGettime(CLOCK_REALTIME_COARSE)",
		"C clock_gettime(CLOCK_REALTIME)", "C clock_gettime(CLOCK_REALTIME_COARSE)"} {
		row := names[want]
		if row == nil {
			t.Errorf("no row %s", want)
			continue
		}
		isC := strings.HasPrefix(want, "C ")
		switch {
		case isC && !withCgo && !strings.Contains(row.Missing, "without cgo"):
			t.Errorf("%s without cgo: missing %q, want the reason", want, row.Missing)
		case (!isC || withCgo) && row.Missing != "":
			t.Errorf("%s: missing (%s), want it measured", want, row.Missing)
		}
	}
	// The x/sys/unix rows are system calls (zsyscall_linux.go), the C
	// clock_gettime rows the vDSO.
	if row := names["unix.ClockGettime(CLOCK_REALTIME_COARSE)"]; row != nil && (row.Via != viaSyscall || !row.Coarse || row.Reference != ref2018SyscallCoarse) {
		t.Errorf("unix.ClockGettime coarse: via %s, coarse %v, reference %v", row.Via, row.Coarse, row.Reference)
	}
	if row := names["C clock_gettime(CLOCK_REALTIME_COARSE)"]; row != nil && (row.Via != viaVDSO || row.Reference != ref2018VDSOCoarse) {
		t.Errorf("C clock_gettime coarse: via %s, reference %v", row.Via, row.Reference)
	}
}

// TestClocksCancel checks that cancelling keeps the complete rounds and
// drops the one in progress.
func TestClocksCancel(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the clock rows are Linux's")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, err := Clocks(ctx, ClockOptions{Duration: MinDuration, Count: 5, Progress: func(p Progress) {
		if strings.HasPrefix(p.String(), "round 2/5, run 2/") {
			cancel()
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Interrupted || r.Rounds != 1 {
		t.Fatalf("interrupted %v after %d rounds; want interrupted after 1", r.Interrupted, r.Rounds)
	}
	for _, row := range r.Rows {
		if row.Missing == "" && len(row.Samples) != 1 {
			t.Errorf("%s: %d samples, want 1 (the complete round)", row.Name, len(row.Samples))
		}
	}

	done, cancel2 := context.WithCancel(context.Background())
	cancel2()
	r, err = Clocks(done, ClockOptions{Duration: MinDuration, Count: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Interrupted || r.Rounds != 0 {
		t.Errorf("cancelled before the start: interrupted %v, %d rounds", r.Interrupted, r.Rounds)
	}
}

func TestClocksOptions(t *testing.T) {
	for _, o := range []ClockOptions{{Duration: time.Millisecond, Count: 2}, {Duration: MinDuration, Count: 0}} {
		if _, err := Clocks(context.Background(), o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

func TestClocksCPU(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the clock rows are Linux's")
	}
	cpus, err := affinity()
	if err != nil {
		t.Skip(err)
	}
	last := cpus[len(cpus)-1]
	r, err := Clocks(context.Background(), ClockOptions{Duration: MinDuration, Count: 1, CPUs: []int{last}})
	if err != nil {
		t.Fatal(err)
	}
	if r.CPU != last {
		t.Errorf("read on CPU %d, want %d", r.CPU, last)
	}
	if _, err := Clocks(context.Background(), ClockOptions{Duration: MinDuration, Count: 1, CPUs: []int{1 << 20}}); err == nil {
		t.Errorf("a CPU outside the affinity mask was accepted")
	}
}

// TestReference2018 reads the 2018 figures from the message they were
// published in (testdata/clock2018.txt), as its program printed them.
func TestReference2018(t *testing.T) {
	data, err := os.ReadFile("testdata/clock2018.txt")
	if err != nil {
		t.Fatal(err)
	}
	for label, want := range map[string]float64{"vdso hires": ref2018VDSOFine, "vdso coarse": ref2018VDSOCoarse, "sysc hires": ref2018SyscallFine, "sysc coarse": ref2018SyscallCoarse} {
		m := regexp.MustCompile(label + `: +([0-9.]+)ns`).FindSubmatch(data)
		if m == nil {
			t.Errorf("%q not in the message", label)
			continue
		}
		if got, _ := strconv.ParseFloat(string(m[1]), 64); got != want {
			t.Errorf("%s: the message says %v ns, the probe %v", label, got, want)
		}
	}
	for _, fact := range []string{"Arnd Bergmann", "25 Jun 2018", "3.1GHz Ryzen", "Re: [PATCH] vfs: replace current_kernel_time64 with ktime equivalent"} {
		if !strings.Contains(string(data), fact) {
			t.Errorf("the message does not say %q", fact)
		}
	}
}
