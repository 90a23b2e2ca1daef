package access

import (
	"math"
	"strings"
	"testing"
)

// FuzzParseSidecar feeds arbitrary paths files to ParseSidecar: it must
// never panic, an error must be one line that starts with the file's name,
// and what it accepts must be paths that Parse accepts again from their
// String.
func FuzzParseSidecar(f *testing.F) {
	for _, seed := range []string{
		"# paths for tk_core\nktime_get cpus=all rate=hot seqread=seq read=timekeeper.tkr_mono.base\n",
		"[tk_core_v6_1]\nalign 64\npadded 128\n  tick cpus=1 rate=250/s seqwrite=seq write=timekeeper -- the tick\n[pkg.T]\nreader read=a,b\n",
		"[a]\n[a]\n",
		"[a b]\n",
		"[]\n",
		"align 0\n",
		"align\t64\n",
		"padded 96\n",
		"p read=a -- x\np read=b\n",
		"p read=a -- \n",
		"[x\n",
		"\xff\xfe read=\x00\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		sc, err := ParseSidecar("f.paths", strings.NewReader(text))
		if err != nil {
			if sc != nil {
				t.Errorf("ParseSidecar returned a sidecar and an error")
			}
			if msg := err.Error(); strings.ContainsAny(msg, "\n\r") || !strings.HasPrefix(msg, "f.paths") {
				t.Errorf("error is not one line naming the file: %q", msg)
			}
			return
		}
		for _, s := range sc.Sections {
			for _, n := range []int64{s.Align, s.Padded} {
				if n < 0 || n&(n-1) != 0 {
					t.Errorf("section %q: align %d, padded %d: not powers of two", s.Type, s.Align, s.Padded)
				}
			}
			if strings.ContainsAny(s.Type, " \t") {
				t.Errorf("section type %q has blanks", s.Type)
			}
			for _, p := range s.Paths {
				if p.Name == "" || len(p.Accesses) == 0 || p.Rate < 0 || math.IsNaN(p.Rate) || math.IsInf(p.Rate, 0) {
					t.Errorf("section %q accepted an invalid path %+v", s.Type, *p)
				}
				if _, err := Parse(p.String()); err != nil {
					t.Errorf("section %q: path %q does not parse again: %v", s.Type, p.String(), err)
				}
			}
		}
	})
}
