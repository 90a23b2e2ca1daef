package main

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/diff"
	"github.com/mglayout/mglayout/layout/placement"
	"github.com/mglayout/mglayout/layout/render"
	"github.com/mglayout/mglayout/layout/sharing"
	"github.com/mglayout/mglayout/layout/suggest"
)

func init() {
	register(&command{
		name:  "suggest",
		args:  "T",
		short: "a cache-aware member order and padding for all line sizes and phases at once",
		long: `Suggest searches for an order of a struct's members, and padding where it
removes false sharing, that minimises what its access paths pay at every
requested line size and every phase at once: the lines each path touches
(and the 128-byte blocks below 128 bytes), weighted by the path's rate, and
the false sharing. It prints the suggested declarations as Go source, a diff
against the declared ones, and the figures of every path before and after.

It never moves a member across deliberate padding (a blank field, a member
named pad..., cpu.CacheLinePad), leaves structs marked structs.HostLayout
alone unless -force is given, and reorders a struct type only where the
object holds it once.

T is a built-in model (tk_core@v6.1) or a Go type (import/path.T or ./dir.T).`,
		flags: suggestFlags,
	})
}

func suggestFlags(fs *flag.FlagSet) func(*context, []string) error {
	var out outputFlags
	out.register(fs)
	var load loadFlags
	load.register(fs)
	force := fs.Bool("force", false, "reorder structs marked structs.HostLayout too")
	return func(ctx *context, args []string) error {
		if len(args) != 1 {
			return usagef("want one type or model (e.g. mglayout suggest tk_core@v6.1)")
		}
		lines, err := out.lineSizes()
		if err != nil {
			return err
		}
		if f, err := out.formatName(); err != nil {
			return err
		} else if f != "text" {
			return usagef("suggest writes Go source and text only; drop -format %s", f)
		}
		set, err := load.config(ctx).LoadOne(args[0])
		if err != nil {
			return err
		}
		s := set.Structs[0]
		obj := &sharing.Object{Layout: s, Paths: set.Paths[s], Phases: placement.For(s, set.Declared[s]).Func(s)}
		declared := set.Declared[s]
		r, err := suggest.Suggest(obj, suggest.Options{
			Lines:  lines,
			Phases: func(c *layout.Struct) func(int64) ([]int64, string) { return placement.For(c, declared).Func(c) },
			Force:  *force,
		})
		if err != nil {
			return usagef("%v", err)
		}
		return writeSuggestion(ctx, r, set.Source[s], lines, declared)
	}
}

func writeSuggestion(ctx *context, r *suggest.Result, files *suggest.Files, lines []int64, declared bool) error {
	w := ctx.stdout
	s := r.Original
	fmt.Fprintf(w, "%s (%s, %s): suggestion for %s\n\n", s.Name, s.Source, s.Arch, sizesText(lines))
	if len(r.Reordered) == 0 && len(r.Padding) == 0 {
		fmt.Fprintf(w, "The declared layout is already the best this search finds (cost %s).\n", costText(r.CostBefore))
	} else {
		fmt.Fprintf(w, "Cost (rate-weighted lines touched, summed over line sizes and phases): %s → %s (%.1f%% less).\n",
			costText(r.CostBefore), costText(r.CostAfter), 100*(1-r.CostAfter/r.CostBefore))
	}
	for _, path := range sortedKeys(r.Frozen) {
		name := path
		if name == "" {
			name = s.Name
		}
		fmt.Fprintf(w, "left as declared: %s, because %s\n", name, r.Frozen[path])
	}
	for _, p := range r.Padding {
		fmt.Fprintf(w, "padding: %d bytes before %s, so that no line holds members on both sides\n", p.Bytes, p.Before)
	}
	for _, u := range r.Unresolved {
		fmt.Fprintf(w, "not resolved: %s\n", u)
	}
	if files != nil {
		decls, err := suggest.Declarations(files, r)
		if err != nil {
			return usagef("%v", err)
		}
		for _, d := range decls {
			fmt.Fprintf(w, "\nSuggested declaration:\n\n%s\n%s", indent(d.New), suggest.Unified(d.Name+" (declared)", d.Name+" (suggested)", d.Old, d.New))
		}
	}
	if len(r.Reordered) == 0 && len(r.Padding) == 0 {
		return nil
	}
	analyze := func(l *layout.Struct) (*sharing.ObjectAnalysis, error) {
		a, err := sharing.Analyze([]*sharing.Object{{Layout: l, Paths: r.Paths, Phases: placement.For(l, declared).Func(l)}}, lines)
		if err != nil {
			return nil, err
		}
		return &a.Objects[0], nil
	}
	before, err := analyze(r.Original)
	if err != nil {
		return err
	}
	suggested := *r.Suggested
	suggested.Name += " (suggested)"
	after, err := analyze(&suggested)
	if err != nil {
		return err
	}
	cmp, err := diff.Compare(before, after, lines)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nFigures, declared → suggested:\n\n")
	return render.DiffText(w, cmp)
}

func sizesText(lines []int64) string {
	var s []string
	for _, l := range lines {
		s = append(s, fmt.Sprintf("%d B", l))
	}
	return strings.Join(s, ", ") + " lines"
}

func costText(c float64) string { return fmt.Sprintf("%.4g", c) }

func indent(text string) string {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		b.WriteString("\t" + line + "\n")
	}
	return b.String()
}

func sortedKeys(m map[string]string) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
