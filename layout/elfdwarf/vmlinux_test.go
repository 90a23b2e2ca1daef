package elfdwarf

import (
	"flag"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mglayout/mglayout/layout"
)

var vmlinux = flag.String("vmlinux", "", "a Debian debug vmlinux of 6.1 (testdata/fetch-vmlinux.sh DIR fetches one) for TestVmlinux")

// TestVmlinux reads tk_core from a real kernel: an anonymous struct
// variable whose 64-byte alignment is on the variable, laid out as
// Thomas Gleixner quoted pahole in January 2023 (seq 0 4, timekeeper 8
// 280), with xtime_sec at 120 (kernel_truth.md §1.2), at the address nm
// gives, with tick_nsec 288 bytes on. Behind a flag: the file is 590 MB.
func TestVmlinux(t *testing.T) {
	if *vmlinux == "" {
		t.Skip("needs -vmlinux PATH (testdata/fetch-vmlinux.sh DIR downloads Debian's 6.1 debug kernel)")
	}
	structs, _, err := Load(*vmlinux, Options{Vars: []string{"tk_core"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(structs) != 1 {
		t.Fatalf("%d layouts for -var tk_core, want 1", len(structs))
	}
	s := structs[0]
	if s.Name != "tk_core" || s.Size != 288 || s.Align != 64 {
		t.Errorf("%s: %d bytes aligned to %d, want tk_core, 288 and 64", s.Name, s.Size, s.Align)
	}
	// The address nm gives, and tick_nsec on the last line, 288 bytes on.
	if out, err := exec.Command("nm", *vmlinux).Output(); err == nil {
		for line := range strings.Lines(string(out)) {
			if f := strings.Fields(line); len(f) == 3 && f[2] == "tk_core" {
				if addr, _ := strconv.ParseUint(f[0], 16, 64); !s.Placed || s.Address != addr {
					t.Errorf("tk_core at %#x (placed %v), nm says %#x", s.Address, s.Placed, addr)
				}
			}
		}
	}
	if !slices.ContainsFunc(s.Neighbours, func(n layout.Neighbour) bool { return n.Name == "tick_nsec" && n.Offset == 288 }) {
		t.Errorf("neighbours %+v, want tick_nsec at +288", s.Neighbours)
	}
	for _, m := range []struct {
		path         string
		offset, size int64
	}{{"seq", 0, 4}, {"timekeeper", 8, 280}, {"timekeeper.tkr_mono", 8, 56}, {"timekeeper.xtime_sec", 120, 8}} {
		if f := s.Field(m.path); f == nil || f.Offset != m.offset || f.Size != m.size {
			t.Errorf("%s: %+v, want offset %d size %d", m.path, f, m.offset, m.size)
		}
	}
}

// paholeQuirks are the structs of Debian's 6.1 vmlinux whose summary
// pahole prints differently from the loader, and why.
var paholeQuirks = map[string]string{
	// include/uapi/linux/bpf.h: struct bpf_timer { __u64 :64; __u64 :64; }
	// __attribute__((aligned(8))). DWARF leaves unnamed bitfields out:
	// pahole counts the 16 bytes as padding after no member, the loader
	// has no member to pad after.
	"bpf_timer":  "16 bytes of unnamed bitfields: pahole's padding: 16",
	"bpf_dynptr": "16 bytes of unnamed bitfields, as bpf_timer: pahole's padding: 16",
}

// TestVmlinuxPahole compares every struct pahole prints of the vmlinux
// with the loader: each direct member's offset, bit offset and size, and
// the summary at 64- and 128-byte lines, but for paholeQuirks. Behind
// -vmlinux: pahole takes about 20 s and 3 GB a line size, and runs once
// for each.
func TestVmlinuxPahole(t *testing.T) {
	if *vmlinux == "" {
		t.Skip("needs -vmlinux PATH (testdata/fetch-vmlinux.sh DIR downloads Debian's 6.1 debug kernel)")
	}
	if _, err := exec.LookPath("pahole"); err != nil {
		t.Skip("pahole not found in PATH (Debian: apt-get install dwarves)")
	}
	structs, _, err := Load(*vmlinux, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// pahole prints the structs named by a typedef only when asked.
	printed := runPahole(t, *vmlinux, 64, "")
	var both []*layout.Struct
	for _, s := range structs {
		if printed[s.Name] != nil && paholeQuirks[s.Name] == "" {
			both = append(both, s)
		}
	}
	if len(both)+len(paholeQuirks) < len(printed) {
		t.Errorf("pahole prints %d structs, the loader read %d of them", len(printed), len(both)+len(paholeQuirks))
	}
	n := comparePahole(t, *vmlinux, both, printed)
	t.Logf("%d structs, %d members compared with pahole; %d quirks left out", len(both), n, len(paholeQuirks))
}
