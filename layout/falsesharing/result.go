package falsesharing

import (
	"fmt"
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/mglayout/mglayout/internal/textfmt"
)

// Result is what the analyzer reports of a package, as data: each
// finding with its rule, its evidence tier, the members it is about, the
// operations on each side and the GOARCHes, line sizes and phases at
// which it holds. Drivers that write JSON or SARIF read it beside the
// diagnostics, which say the same in words.
type Result struct {
	Findings []*Finding
}

// A Finding is one diagnostic as data; the JSON names are those of
// mglayout vet -json.
type Finding struct {
	Pos     token.Pos `json:"-"`
	Rule    *Rule     `json:"-"`
	Message string    `json:"-"` // the diagnostic's
	Tier    Tier      `json:"evidence"`
	// Object is the type (or the run of variables) whose layout the
	// finding is about; Member the hot member, the table, or the pad.
	Object string `json:"object"`
	Member string `json:"member"`
	// Partners are the members that share Member's lines.
	Partners []string `json:"partners,omitempty"`
	// Writers are the operations that write Member; Users those that use
	// the partners (or, for a table, write its elements).
	Writers []Side `json:"writers,omitempty"`
	Users   []Side `json:"users,omitempty"`
	// Declared says, in words, what declares the members apart where a
	// declaration does: padding, a directive.
	Declared []string `json:"declared,omitempty"`
	// Element and Stride are, for a table (FS1, FS4 of a table), the
	// bytes of one element, or of one of the objects allocated one by
	// one, and how far apart neighbours start; 0 otherwise.
	Element int64 `json:"element,omitempty"`
	Stride  int64 `json:"stride,omitempty"`
	// Holds lists where the finding holds: per GOARCH and line size, the
	// phases (bytes into a line where the object starts) at which it
	// shows, of all the phases the object can start at.
	Holds []Holding `json:"holds"`
}

// A Holding is a GOARCH and line size at which a finding holds.
type Holding struct {
	GOARCH string `json:"goarch"`
	Line   int64  `json:"line"`
	// Phases are those at which the finding shows, All those where the
	// object can start; Reason says why it starts there.
	Phases []int64 `json:"phases"`
	All    []int64 `json:"all_phases"`
	Reason string  `json:"placement"`
}

// String names a holding as messages do: "64 B lines on amd64".
func (h Holding) String() string { return linesOn(h.Line, []string{h.GOARCH}) }

// linesOn names a line size on GOARCHes: "64 B lines on amd64 and arm64".
func linesOn(line int64, archs []string) string {
	return fmt.Sprintf("%d B lines on %s", line, textfmt.JoinWords(archs))
}

// GOARCHes returns the GOARCHes at which the finding holds, each once,
// in the order of Holds.
func (f *Finding) GOARCHes() []string {
	var out []string
	for _, h := range f.Holds {
		if !slices.Contains(out, h.GOARCH) {
			out = append(out, h.GOARCH)
		}
	}
	return out
}

// Merge adds to f the holdings of the same finding made on another
// build (a GOARCH whose files differ, checked on its own).
func (f *Finding) Merge(other *Finding) {
	for _, h := range other.Holds {
		if !slices.ContainsFunc(f.Holds, func(x Holding) bool { return x.GOARCH == h.GOARCH && x.Line == h.Line }) {
			f.Holds = append(f.Holds, h)
		}
	}
	slices.SortStableFunc(f.Holds, func(x, y Holding) int { return int(x.Line - y.Line) })
}

// Lines returns the line sizes at which the finding holds, smallest
// first, each once.
func (f *Finding) Lines() []int64 {
	var out []int64
	for _, h := range f.Holds {
		out = append(out, h.Line)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// report reports a diagnostic and records it as data.
func (c *checker) report(d analysis.Diagnostic, f *Finding) {
	f.Pos, f.Message = d.Pos, d.Message
	c.pass.Report(d)
	c.result.Findings = append(c.result.Findings, f)
}

// data is a finding as data, for the rule it is reported under.
func (f *finding) data(rule *Rule) *Finding {
	out := &Finding{Rule: rule, Tier: f.tier, Object: f.tn.Name(), Member: f.hot}
	if f.writer.Op != "" {
		out.Writers = append(out.Writers, f.writer)
	}
	addEvidence := func(e evidence) {
		switch {
		case e.side.Op != "":
			out.Users = append(out.Users, e.side)
		case e.declared != "":
			out.Declared = append(out.Declared, e.declared)
		}
	}
	addEvidence(f.why)
	for _, p := range f.partners {
		out.Partners = append(out.Partners, p.member)
		addEvidence(p.why)
	}
	if f.rule != Neighbour && f.a != f.b && !slices.Contains(out.Partners, f.b) {
		out.Partners = append(out.Partners, f.b)
	}
	for _, al := range f.sortedWhere() {
		p := f.where[al]
		out.Holds = append(out.Holds, Holding{GOARCH: al.arch, Line: al.line, Phases: slices.Sorted(slices.Values(p.hit)), All: slices.Clone(p.all), Reason: p.reason})
	}
	return out
}

// sortedWhere returns the GOARCHes and line sizes of a finding, by line
// size and then GOARCH.
func (f *finding) sortedWhere() []archLine {
	var keys []archLine
	for al := range f.where {
		keys = append(keys, al)
	}
	slices.SortFunc(keys, func(x, y archLine) int {
		if x.line != y.line {
			return int(x.line - y.line)
		}
		return strings.Compare(x.arch, y.arch)
	})
	return keys
}
