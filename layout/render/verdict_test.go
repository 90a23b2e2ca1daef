package render

import (
	"strings"
	"testing"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/layout/diff"
	"github.com/mglayout/mglayout/layout/sharing"
)

// TestVerdictGaining checks the verdict of a hot path that costs more at
// 64-byte lines and less at 128: a regression at 64 B, better at 128 B
// for that very path, named.
func TestVerdictGaining(t *testing.T) {
	obj := &sharing.Object{Layout: &layout.Struct{Name: "S"}, Paths: []*access.Path{{Name: "r", Rate: access.Hot}}}
	oa := &sharing.ObjectAnalysis{Object: obj}
	r := &diff.Result{Old: oa, New: oa, Lines: []int64{64, 128}, Rows: []diff.Row{
		{Path: "r", Line: 64, Old: figures(64, []int64{0}, 0), New: figures(64, []int64{0, 1}, 0), Verdict: diff.Worse},
		{Path: "r", Line: 128, Old: figures(128, []int64{0}, 1), New: figures(128, []int64{0}, 0), Verdict: diff.Better},
	}}
	r.Judgement = r.Judge(false)
	got := strings.Join(strings.Fields(verdictLine(r, r.WorseAt())), " ")
	if want := "REGRESSION at 64 B: r touches more lines, 128-byte blocks or false-shared lines; better for r at 128 B;"; !strings.HasPrefix(got, want) {
		t.Errorf("verdict %q, want it to start %q", got, want)
	}
}

// figures are a path's figures in a case of the line size: the lines it
// touches, each its own 128-byte block, falseLines of them shared falsely.
func figures(line int64, lines []int64, falseLines int) diff.Figures {
	return diff.Figures{Lines: lines, Cost: sharing.Cost{Line: line, Lines: len(lines), Blocks128: len(lines), FalseLines: falseLines}}
}
