package vet

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/format"
	"go/token"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/rogpeppe/go-internal/diff"
)

// Fix applies the first suggested fix of each finding and writes the
// findings it did not fix to w, as text; with printDiff it writes the
// changes as a unified diff instead and changes no file. It returns how
// many findings are left: those not fixed, or with printDiff all of them.
// note is told what was done, in a line.
func Fix(w io.Writer, note func(string), findings []*Finding, printDiff bool) (left int, err error) {
	p, err := planFixes(findings)
	if err != nil {
		return 0, err
	}
	names := slices.Sorted(maps.Keys(p.fixed))
	for _, name := range names {
		if printDiff {
			rel := filepath.ToSlash(shortPath(name))
			if _, err := w.Write(diff.Diff("a/"+rel, p.orig[name], "b/"+rel, p.fixed[name])); err != nil {
				return 0, err
			}
			continue
		}
		if err := os.WriteFile(name, p.fixed[name], 0o666); err != nil {
			return 0, err
		}
	}
	if p.overlapping > 0 {
		note(fmt.Sprintf("%d fixes overlap others and wait for the next run of -fix", p.overlapping))
	}
	if printDiff {
		return len(findings), nil
	}
	var unfixed []*Finding
	for _, f := range findings {
		if !p.applied[f] {
			unfixed = append(unfixed, f)
		}
	}
	if len(p.applied) > 0 {
		note(fmt.Sprintf("applied %d fixes to %d files", len(p.applied), len(names)))
	}
	return len(unfixed), WriteText(w, unfixed)
}

// fixPlan is what applying the fixes would do.
type fixPlan struct {
	orig, fixed map[string][]byte // each changed file before and after, gofmt'ed
	applied     map[*Finding]bool
	overlapping int // fixes left out for overlapping edits of a fix taken
}

// edit replaces bytes [start, end) of a file with text.
type edit struct {
	start, end int
	text       string
}

// planFixes takes the first fix of each Finding in order, all of its
// edits or none: none when one would touch a generated file or overlap an
// edit already taken (an identical edit is taken once: two findings may
// want the same import). Edits are applied to the files as loaded, and a
// file that changed since is an error, as is a fixed file that no longer
// parses, before anything is written.
func planFixes(findings []*Finding) (*fixPlan, error) {
	p := &fixPlan{orig: map[string][]byte{}, fixed: map[string][]byte{}, applied: map[*Finding]bool{}}
	taken := map[string][]edit{}
	generated := map[*token.File]bool{}
fixes:
	for _, f := range findings {
		if len(f.diag.SuggestedFixes) == 0 {
			continue
		}
		add := map[string][]edit{}
		for _, e := range f.diag.SuggestedFixes[0].TextEdits {
			file := f.pkg.Fset.File(e.Pos)
			if isGenerated(f, file, generated) {
				continue fixes
			}
			name := file.Name()
			if _, ok := p.orig[name]; !ok {
				src, err := os.ReadFile(name)
				if err != nil {
					return nil, err
				}
				if len(src) != file.Size() {
					return nil, fmt.Errorf("%s changed while it was analysed (run again)", shortPath(name))
				}
				p.orig[name] = src
			}
			ed := edit{start: file.Offset(e.Pos), end: file.Offset(cmp.Or(e.End, e.Pos)), text: string(e.NewText)}
			if slices.Contains(taken[name], ed) {
				continue
			}
			if slices.ContainsFunc(taken[name], func(t edit) bool { return overlap(t, ed) }) {
				p.overlapping++
				continue fixes
			}
			add[name] = append(add[name], ed)
		}
		for name, eds := range add {
			taken[name] = append(taken[name], eds...)
		}
		p.applied[f] = true
	}
	for name, eds := range taken {
		fixed, err := format.Source(apply(p.orig[name], eds))
		if err != nil {
			return nil, fmt.Errorf("the suggested fixes leave %s unparsable (%v); nothing was written: this is a bug in the analyzer", shortPath(name), err)
		}
		p.fixed[name] = fixed
	}
	return p, nil
}

// overlap reports whether two edits touch the same bytes, or insert at the
// same place, where the order of the two would be a guess.
func overlap(a, b edit) bool {
	return a.start < b.end && b.start < a.end || a.start == b.start
}

// apply applies non-overlapping edits to src.
func apply(src []byte, eds []edit) []byte {
	eds = slices.Clone(eds)
	slices.SortFunc(eds, func(a, b edit) int { return cmp.Compare(a.start, b.start) })
	var out []byte
	at := 0
	for _, e := range eds {
		out = append(append(out, src[at:e.start]...), e.text...)
		at = e.end
	}
	return append(out, src[at:]...)
}

// isGenerated reports whether the file is generated code (// Code
// generated ... DO NOT EDIT.), which a fix must not touch.
func isGenerated(f *Finding, file *token.File, memo map[*token.File]bool) bool {
	gen, ok := memo[file]
	if !ok {
		i := slices.IndexFunc(f.pkg.Syntax, func(s *ast.File) bool { return f.pkg.Fset.File(s.FileStart) == file })
		gen = i >= 0 && ast.IsGenerated(f.pkg.Syntax[i])
		memo[file] = gen
	}
	return gen
}
