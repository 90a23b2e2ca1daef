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

var vmlinuxMoved = flag.String("vmlinux.moved", "", "with -vmlinux, a Debian debug vmlinux whose tk_core is at 64 mod 128 (6.12: fetch-vmlinux.sh DIR linux-image-6.12.111+deb12-cloud-amd64-dbg) for TestVmlinuxMoved")

// TestVmlinuxMoved compares two real kernels whose tk_core has the same
// layout at different placements, as Debian's 6.1 (0 mod 128) and 6.12
// (64 mod 128) images have it: check counts the 64-byte figures' blocks
// from the address, diff says first that only the placement moved,
// compares each side at its own phase, and fails the gate on the blocks,
// and the JSON address reads right in jq. Behind flags: the files are
// large.
func TestVmlinuxMoved(t *testing.T) {
	if *vmlinux == "" || *vmlinuxMoved == "" {
		t.Skip("needs -vmlinux PATH and -vmlinux.moved PATH (layout/elfdwarf/testdata/fetch-vmlinux.sh DIR [PACKAGE] downloads Debian's debug kernels)")
	}
	old, moved := *vmlinux, *vmlinuxMoved
	code, out, stderr := mglayout("check", "-elf", moved, "-var", "tk_core", "-paths", "tk_core@v6.1", "-lines", "64,128")
	if code != 0 {
		t.Fatalf("check: exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		`(?m)^  128 B lines: phase 64 \(at 0x[0-9a-f]+ \(the symbol table\)\)$`,
		`(?m)^  ktime_get_real_ts64 +0-1 \[2×128\] +0-1$`,
		`(?m)^  ktime_get_raw_ts64 +0-1,3 \[3×128\] +0-2$`,
	} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("check of the moved tk_core prints no line matching %s:\n%s", want, out)
		}
	}
	code, out, stderr = mglayout("diff", "-elf", old, "-elf", moved, "-var", "tk_core", "-paths", "tk_core@v6.1", "-lines", "64,128")
	flat := strings.Join(strings.Fields(out), " ")
	if code != 1 || !regexp.MustCompile(`^tk_core → tk_core \(amd64\) tk_core moved from 0x[0-9a-f]+ \(0 mod 128\) to 0x[0-9a-f]+ \(64 mod 128\); the layout is identical\.`).MatchString(flat) ||
		!strings.Contains(flat, "REGRESSION at 64 B and 128 B") || !strings.Contains(out, "128 B/0→64") || strings.Contains(out, "128 B/64 ") {
		t.Errorf("diff of the two kernels: exit %d, want 1, the move said first and each side at its own phase:\n%s%s", code, out, stderr)
	}
	if _, err := exec.LookPath("jq"); err != nil {
		t.Log("jq not found in PATH: the JSON address is not read with it")
		return
	}
	code, out, _ = mglayout("layout", "-elf", moved, "-var", "tk_core", "-format", "json")
	jq := exec.Command("jq", "-r", ".structs[0].address")
	jq.Stdin = strings.NewReader(out)
	addr, err := jq.Output()
	if code != 0 || err != nil || !regexp.MustCompile(`^0x[0-9a-f]+(40|c0)\n$`).Match(addr) {
		t.Errorf("jq reads the address as %q (%v), want the symbol table's, 64 mod 128", addr, err)
	}
}
