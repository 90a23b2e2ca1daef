package falsesharing_test

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/mglayout/mglayout/layout/falsesharing"
)

// errorsOf collects what analysistest would report, so that a test can
// expect the analysis to fail.
type errorsOf []string

func (e *errorsOf) Errorf(format string, args ...any) { *e = append(*e, fmt.Sprintf(format, args...)) }

// TestBadFlags checks that a GOARCH or a line size the analyzer cannot
// use fails the analysis with a message naming the flag, rather than
// being checked as something else or dropped.
func TestBadFlags(t *testing.T) {
	for _, tc := range []struct{ arch, lines, want string }{
		{"amd65", "", `-falsesharing.arch: unknown GOARCH "amd65"`},
		{"amd64", "96x", "-falsesharing.lines: "},
	} {
		t.Run(tc.arch+"_"+tc.lines, func(t *testing.T) {
			setFlags(t, tc.arch, tc.lines)
			var errs errorsOf
			analysistest.Run(&errs, analysistest.TestData(), falsesharing.Analyzer, "common/missing") // no imports: the error is its own, not a prerequisite's
			if len(errs) == 0 || !strings.Contains(strings.Join(errs, "\n"), tc.want) {
				t.Errorf("-arch=%s -lines=%s: got errors %q, want one containing %q", tc.arch, tc.lines, errs, tc.want)
			}
		})
	}
}
