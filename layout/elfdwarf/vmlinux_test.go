package elfdwarf

import (
	"flag"
	"testing"
)

var vmlinux = flag.String("vmlinux", "", "a Debian debug vmlinux of 6.1 (testdata/fetch-vmlinux.sh DIR fetches one) for TestVmlinux")

// TestVmlinux reads tk_core from a real kernel: an anonymous struct
// variable whose 64-byte alignment is on the variable, laid out as
// Thomas Gleixner quoted pahole in January 2023 (seq 0 4, timekeeper 8
// 280), with xtime_sec at 120 (kernel_truth.md §1.2). Behind a flag: the
// file is 590 MB.
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
	for _, m := range []struct {
		path         string
		offset, size int64
	}{{"seq", 0, 4}, {"timekeeper", 8, 280}, {"timekeeper.tkr_mono", 8, 56}, {"timekeeper.xtime_sec", 120, 8}} {
		if f := s.Field(m.path); f == nil || f.Offset != m.offset || f.Size != m.size {
			t.Errorf("%s: %+v, want offset %d size %d", m.path, f, m.offset, m.size)
		}
	}
}
