package main

import (
	"flag"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

var vmlinux = flag.String("vmlinux", "", "a Debian debug vmlinux of 6.1 (layout/elfdwarf/testdata/fetch-vmlinux.sh DIR fetches one) for TestVmlinuxWorkflow")

// TestVmlinuxWorkflow runs the kernel developer's commands on a real
// kernel: tk_core's layout with its address and neighbours in text and
// JSON, check naming the neighbours on the lines the object shares, the
// diff of the kernel against itself under the model's paths,
// the suggestion in C, and one struct looked up against pahole -C in
// alternating runs (the times are logged, not asserted). Behind a flag:
// the file is 590 MB.
func TestVmlinuxWorkflow(t *testing.T) {
	if *vmlinux == "" {
		t.Skip("needs -vmlinux PATH (layout/elfdwarf/testdata/fetch-vmlinux.sh DIR downloads Debian's 6.1 debug kernel)")
	}
	v := *vmlinux
	code, out, stderr := mglayout("layout", "-elf", v, "-var", "tk_core", "-lines", "64,128")
	if code != 0 {
		t.Fatalf("layout -var tk_core: exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		`(?m)^struct tk_core \{$`,
		`(?m)^\tseqcount_raw_spinlock_t +seq; +/\* +0 +4 \|`,
		`(?m)^\tstruct timekeeper +timekeeper; +/\* +8 +280 \|`,
		`(?m)^\t/\* at 0x[0-9a-f]+ \(the symbol table\): phase 0 at 64 B; 0 at 128 B \*/$`,
		`(?m)^\t/\* on its first and last lines: tick_nsec \+288 \(8 bytes; 64, 128 B\), sync_hrtimer \+320 \(64 bytes; 128 B\)`,
	} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("layout -var tk_core prints no line matching %s:\n%s", want, out)
		}
	}
	if code, out, _ = mglayout("layout", "-elf", v, "-var", "tk_core", "-format", "json"); code != 0 || !strings.Contains(out, `"address": "0x`) || !strings.Contains(out, `"name": "tick_nsec"`) {
		t.Errorf("layout -format json: exit %d, no address or tick_nsec among the neighbours:\n%s", code, out)
	}
	code, out, stderr = mglayout("diff", "-elf", v, "-elf", v, "-var", "tk_core", "-paths", "tk_core@v6.1", "-lines", "64,128")
	if code != 0 || !strings.Contains(out, "ktime_get_coarse_real_ts64") {
		t.Errorf("diff of the kernel against itself under tk_core@v6.1's paths: exit %d, want 0 and the model's paths:\n%s%s", code, out, stderr)
	}
	// check names the neighbours on the lines the object shares: at 64 B
	// only the tick dirties line 4, which holds tick_nsec.
	code, out, stderr = mglayout("check", "-elf", v, "-var", "tk_core", "-paths", "tk_core@v6.1", "-lines", "64,128")
	if flat := strings.Join(strings.Fields(out), " "); code != 0 || !strings.Contains(flat, "neighbours share line 4 (32 B after, holds tick_nsec +288 (8 bytes)). tick dirties those lines: false sharing for whatever lives there. No reader touches them") ||
		!strings.Contains(flat, "line 2 (96 B after, holds tick_nsec +288 (8 bytes), sync_hrtimer +320 (64 bytes))") {
		t.Errorf("check: exit %d, not the neighbours of tk_core's last lines:\n%s%s", code, out, stderr)
	}
	code, out, stderr = mglayout("suggest", "-elf", v, "-var", "tk_core", "-paths", "tk_core@v6.1")
	if code != 0 || !strings.Contains(out, "\tstruct timekeeper {\n") || !strings.Contains(out, "--- struct timekeeper (declared at include/linux/timekeeper_internal.h:") {
		t.Errorf("suggest: exit %d, no C declaration of struct timekeeper with where it is declared:\n%s%s", code, out, stderr)
	}

	if _, err := exec.LookPath("pahole"); err != nil {
		t.Log("pahole not found in PATH: the lookup is not timed against it")
		return
	}
	var ours, theirs []time.Duration
	for range 5 {
		start := time.Now()
		if code, _, stderr := mglayout("layout", "-elf", v, "-type", "timekeeper"); code != 0 {
			t.Fatalf("layout -type timekeeper: exit %d: %s", code, stderr)
		}
		ours = append(ours, time.Since(start))
		start = time.Now()
		if out, err := exec.Command("pahole", "-C", "timekeeper", v).CombinedOutput(); err != nil {
			t.Fatalf("pahole -C timekeeper: %v\n%s", err, out)
		}
		theirs = append(theirs, time.Since(start))
	}
	median := func(ds []time.Duration) time.Duration { return slices.Sorted(slices.Values(ds))[len(ds)/2] }
	t.Logf("one struct, median of 5 alternating runs: layout -type timekeeper %v, pahole -C timekeeper %v (ratio %.2f)",
		median(ours).Round(time.Millisecond), median(theirs).Round(time.Millisecond), median(ours).Seconds()/median(theirs).Seconds())
}
