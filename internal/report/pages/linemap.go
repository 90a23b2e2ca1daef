package pages

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mglayout/mglayout/internal/report"
	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/layout/layoutjson"
	"github.com/mglayout/mglayout/layout/render"
)

// Colours. Writer paths take warm colours and readers cool ones, so that
// a line where red meets blue is a line a writer dirties under a reader.
var (
	writerPalette = []string{"#d62728", "#ff7f0e", "#8c564b", "#e377c2", "#bcbd22", "#b5651d"}
	readerPalette = []string{"#1f77b4", "#2ca02c", "#17becf", "#9467bd", "#393b79", "#637939", "#7b4173", "#6baed6"}
)

// pathColors gives every path name of the report one colour, in the order
// the checks list them.
func pathColors(r *report.Report) map[string]string {
	colors := map[string]string{}
	var nw, nr int
	for _, o := range r.Checks.Objects {
		for _, jp := range o.Paths {
			if _, ok := colors[jp.Name]; ok {
				continue
			}
			p, err := access.Parse(jp.Spec)
			if err == nil && p.Writes() {
				colors[jp.Name] = writerPalette[nw%len(writerPalette)]
				nw++
			} else {
				colors[jp.Name] = readerPalette[nr%len(readerPalette)]
				nr++
			}
		}
	}
	return colors
}

// mapPath is one access path of a layout with the bytes it touches.
type mapPath struct {
	name    string
	color   string
	writes  bool
	spec    string
	touches []access.Touch
}

// cell is a run of leaf members drawn as one segment: a scalar or an
// array, or members that overlap (union alternatives, bit-fields).
type cell struct {
	off, end int64
	paths    []string
	names    []string
	types    []string
}

// leafCells returns the members that hold bytes, as the sharing analysis
// counts them (neither structs nor unions), merged where they overlap.
func leafCells(s *layoutjson.Struct) []cell {
	var cells []cell
	fields := slices.Clone(s.Fields)
	slices.SortStableFunc(fields, func(a, b layoutjson.Field) int { return cmp.Compare(a.Offset, b.Offset) })
	for _, f := range fields {
		if f.Kind == "struct" || f.Kind == "union" || f.Size <= 0 {
			continue
		}
		if n := len(cells); n > 0 && f.Offset < cells[n-1].end {
			c := &cells[n-1]
			c.end = max(c.end, f.Offset+f.Size)
			c.paths = append(c.paths, f.Path)
			c.names = append(c.names, f.Path)
			c.types = append(c.types, f.Type)
			continue
		}
		cells = append(cells, cell{off: f.Offset, end: f.Offset + f.Size, paths: []string{f.Path}, names: []string{f.Path}, types: []string{f.Type}})
	}
	return cells
}

// resolvePaths maps the paths of a layout's check onto its bytes. The
// layout is rebuilt from the report's document, as a recorded report
// holds it, so that member paths resolve exactly as the analysis
// resolved them (arrays, elements).
func resolvePaths(s *layoutjson.Struct, co *render.CheckObject, colors map[string]string) ([]mapPath, []string) {
	if co == nil {
		return nil, nil
	}
	var notes []string
	one := *s
	one.Paths = nil
	obj, err := one.Object()
	if err != nil {
		return nil, []string{"cannot read the layout back: " + err.Error()}
	}
	var out []mapPath
	for _, jp := range co.Paths {
		p, err := access.Parse(jp.Spec)
		if err != nil {
			notes = append(notes, fmt.Sprintf("path %s not drawn: %v", jp.Name, err))
			continue
		}
		ts, err := access.Resolve(p, obj.Layout)
		if err != nil {
			notes = append(notes, fmt.Sprintf("path %s not drawn: %v", jp.Name, err))
			continue
		}
		out = append(out, mapPath{name: jp.Name, color: colors[jp.Name], writes: p.Writes(), spec: jp.Spec, touches: ts})
	}
	return out, notes
}

func checkObject(r *report.Report, i int) *render.CheckObject {
	name := r.Layouts.Structs[i].Name
	if i < len(r.Checks.Objects) && r.Checks.Objects[i].Name == name {
		return &r.Checks.Objects[i]
	}
	for j := range r.Checks.Objects {
		if r.Checks.Objects[j].Name == name {
			return &r.Checks.Objects[j]
		}
	}
	return nil
}

// Geometry of the cache-line maps.
const (
	mapLeft   = 96.0  // row labels
	mapRowW   = 900.0 // one line, whatever its size
	mapRight  = 184.0 // what is shared on the line
	mapTop    = 44.0  // offset ticks
	mapRowH   = 40.0  // one line: a name strip and the path bands
	mapNameH  = 15.0
	mapGap    = 17.0 // room for the names of the structs that start on the next line
	maxMapRow = 48   // lines drawn per map; the rest are summarised
	// maxPhases is how many phases of one line size get a map.
	maxPhases = 3
	charW     = 6.0 // width of a 10px monospace character
)

func plural(n int64, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func newHTMLLayout(r *report.Report, i int, colors map[string]string) htmlLayout {
	s := &r.Layouts.Structs[i]
	co := checkObject(r, i)
	hl := htmlLayout{Name: s.Name, Doc: s.Doc, Placement: render.PlacementText(*s, r.Lines)}
	var lines []string
	for _, l := range r.Lines {
		n := s.Lines[strconv.FormatInt(l, 10)]
		lines = append(lines, fmt.Sprintf("%d %s at %d B", n, plural(n, "line"), l))
	}
	fs := "no false sharing at any line size or phase"
	if co != nil && co.FalseSharing {
		fs = "false sharing at some line size or phase"
	}
	hl.Summary = fmt.Sprintf("%d bytes (%s, %s), aligned to %d; %s; %d %s, %d bytes of tail padding; %s.",
		s.Size, s.Source, s.Arch, s.Align, strings.Join(lines, ", "), s.HoleCount(), plural(int64(s.HoleCount()), "hole"), s.TailPadding, fs)

	paths, notes := resolvePaths(s, co, colors)
	hl.Notes = notes
	hl.Legend = mapLegend(paths)
	cells := leafCells(s)
	for _, l := range r.Lines {
		phases := s.Phases[strconv.FormatInt(l, 10)]
		if len(phases) == 0 {
			phases = []int64{0}
		}
		shown := choosePhases(phases, co, l)
		for _, ph := range shown {
			title := fmt.Sprintf("%d-byte lines, object at phase %d", l, ph)
			if len(phases) == 1 {
				title = fmt.Sprintf("%d-byte lines, object line-aligned", l)
			}
			hl.Maps = append(hl.Maps, htmlMap{Title: title, Chart: lineMap(s, cells, paths, co, l, ph)})
		}
		if n := len(phases) - len(shown); n > 0 {
			hl.Notes = append(hl.Notes, fmt.Sprintf("At %d B the object can start at %d phases; the maps show phase %d and the %d with the most false sharing, %d more are not drawn.",
				l, len(phases), phases[0], len(shown)-1, n))
		}
	}
	return hl
}

// choosePhases keeps every phase when there are few, otherwise the first
// and those whose false sharing is worst.
func choosePhases(phases []int64, co *render.CheckObject, line int64) []int64 {
	if len(phases) <= maxPhases {
		return phases
	}
	type scored struct {
		phase       int64
		false, hits int
	}
	var rest []scored
	for _, ph := range phases[1:] {
		sc := scored{phase: ph}
		if c := checkCase(co, line, ph); c != nil {
			for _, p := range c.Paths {
				sc.false += len(p.FalseLines)
				sc.hits += len(p.Lines)
			}
		}
		rest = append(rest, sc)
	}
	slices.SortStableFunc(rest, func(a, b scored) int {
		if c := cmp.Compare(b.false, a.false); c != 0 {
			return c
		}
		if c := cmp.Compare(b.hits, a.hits); c != 0 {
			return c
		}
		return cmp.Compare(a.phase, b.phase)
	})
	out := []int64{phases[0]}
	for _, sc := range rest[:maxPhases-1] {
		out = append(out, sc.phase)
	}
	slices.Sort(out)
	return out
}

func checkCase(co *render.CheckObject, line, phase int64) *render.CheckCase {
	if co == nil {
		return nil
	}
	for i := range co.Cases {
		if c := &co.Cases[i]; c.Line == line && c.Phase == phase {
			return c
		}
	}
	return nil
}

func mapLegend(paths []mapPath) *svgChart {
	const rowH, colW = 20.0, 390.0
	cols := 3
	rows := (len(paths) + cols - 1) / cols
	h := float64(rows)*rowH + 52
	c := newChart("legend", "access paths and their colours", mapLeft+mapRowW+mapRight, h)
	for i, p := range paths {
		x, y := 8+float64(i%cols)*colW, 6+float64(i/cols)*rowH
		op := "0.55"
		what := "reads"
		if p.writes {
			op, what = "1", "writes"
		}
		sw := c.rect("swatch", x, y, 14, 14, p.color, p.spec)
		if op != "1" {
			sw.Opacity = op
		}
		c.text("legend-text", x+20, y+11, "start", trunc(p.name, 42)+" ("+what+")").Tip = p.spec
	}
	y := 6 + float64(rows)*rowH + 4
	c.rect("swatch", 8, y, 14, 14, "url(#hatch)", "")
	c.text("legend-text", 28, y+11, "start", "hole or padding")
	c.rect("swatch outside", 168, y, 14, 14, "none", "")
	c.text("legend-text", 188, y+11, "start", "not this object (a neighbour)")
	c.rect("swatch", 418, y, 14, 14, "#ececec", "")
	c.text("legend-text", 438, y+11, "start", "member no path touches")
	c.text("legend-text", 618, y+11, "start", "bands: one per path; solid writes, pale reads")
	return c
}

// lineMap draws one layout at one line size and phase: a row per line,
// each member a segment at its offset, bands below its name for the paths
// that touch it.
func lineMap(s *layoutjson.Struct, cells []cell, paths []mapPath, co *render.CheckObject, line, phase int64) *svgChart {
	n := (phase + s.Size + line - 1) / line
	if s.Size == 0 {
		n = 1
	}
	rows := min(n, maxMapRow)
	h := mapTop + float64(rows)*(mapRowH+mapGap) + 4
	if rows < n {
		h += 18
	}
	c := newChart("chart linemap", fmt.Sprintf("%s on %d-byte lines at phase %d", s.Name, line, phase), mapLeft+mapRowW+mapRight, h)
	scale := mapRowW / float64(line)
	x := func(inLine int64) float64 { return mapLeft + float64(inLine)*scale }

	// Offset ticks above the first row, every eighth of the line.
	step := max(line/8, 1)
	for t := int64(0); t <= line; t += step {
		c.line("tick", x(t), mapTop-24, x(t), mapTop-19)
		c.text("tick-label", x(t), mapTop-27, "middle", strconv.FormatInt(t, 10))
	}
	c.text("axis-label", mapLeft-8, mapTop-27, "end", "byte in line")

	cs := checkCase(co, line, phase)
	holes := s.Holes
	aggs := aggregates(s)
	for li := int64(0); li < rows; li++ {
		y := mapTop + float64(li)*(mapRowH+mapGap)
		start, end := li*line-phase, (li+1)*line-phase // object offsets of the line
		lo, hi := max(start, 0), min(end, s.Size)
		c.text("row-label", mapLeft-8, y+16, "end", fmt.Sprintf("line %d", li))
		c.text("row-sub", mapLeft-8, y+30, "end", fmt.Sprintf("bytes %d–%d", lo, hi-1))
		c.rect("line-box", x(0), y, mapRowW, mapRowH, "none", "")

		if start < 0 {
			c.rect("outside", x(0), y, float64(-start)*scale, mapRowH, "none", fmt.Sprintf("%d bytes before the object: whatever precedes it", -start))
			label(c, "outside-label", x(0), y, float64(-start)*scale, "neighbour")
		}
		// Past the object: its own padding up to where whatever follows
		// must start (padded_to, a .data..cacheline_aligned object),
		// then neighbours.
		own := s.Size
		if s.PaddedTo > 0 {
			own = (s.Size + s.PaddedTo - 1) / s.PaddedTo * s.PaddedTo
		}
		if a, b := max(s.Size, start), min(own, end); b > a {
			w := float64(b-a) * scale
			c.rect("hole", x(a-start), y, w, mapRowH, "url(#hatch)", fmt.Sprintf("%d bytes of padding: nothing follows the object before offset %d (padded to %d)", b-a, own, s.PaddedTo))
			label(c, "hole-label", x(a-start), y, w, fmt.Sprintf("padding to %d", s.PaddedTo))
		}
		if end > own {
			a := max(own, start)
			w := float64(end-a) * scale
			c.rect("outside", x(a-start), y, w, mapRowH, "none", fmt.Sprintf("%d bytes after the object: whatever follows it", end-a))
			label(c, "outside-label", x(a-start), y, w, "neighbour")
		}
		// Gaps between members: holes, and padding at the ends of
		// nested structs and of the object.
		prev := lo
		gap := func(a, b int64) {
			if b <= a {
				return
			}
			kind := "padding"
			for _, hole := range holes {
				if hole.Offset < b && a < hole.Offset+hole.Size {
					kind = "hole"
				}
			}
			w := float64(b-a) * scale
			c.rect("hole", x(a-start), y, w, mapRowH, "url(#hatch)", fmt.Sprintf("%s: bytes %d–%d (%d B)", kind, a, b-1, b-a))
			label(c, "hole-label", x(a-start), y, w, fmt.Sprintf("%s %d", kind, b-a), kind)
		}
		for _, cl := range cells {
			a, b := max(cl.off, lo), min(cl.end, hi)
			if b <= a {
				continue
			}
			gap(prev, a)
			prev = max(prev, b)
			segment(c, cl, a, b, start, y, scale, paths)
		}
		gap(prev, hi)
		flags(c, aggs, lo, hi, start, y, scale)
		shareNote(c, cs, li, y)
	}
	if rows < n {
		c.text("row-sub", mapLeft, h-8, "start", fmt.Sprintf("… %d more lines not drawn", n-rows))
	}
	return c
}

// segment draws the bytes [a, b) of a member on the row of the line that
// starts at object offset start.
func segment(c *svgChart, cl cell, a, b, start int64, y, scale float64, paths []mapPath) {
	x0 := mapLeft + float64(a-start)*scale
	w := float64(b-a) * scale

	type band struct {
		p      *mapPath
		ranges [][3]int64 // off, end, writes
	}
	var bands []band
	for i := range paths {
		p := &paths[i]
		if rs := touched(p.touches, a, b); len(rs) > 0 {
			bands = append(bands, band{p, rs})
		}
	}
	var who []string
	for _, bd := range bands {
		verb := "reads"
		for _, r := range bd.ranges {
			if r[2] == 1 {
				verb = "writes"
			}
		}
		who = append(who, bd.p.name+" "+verb)
	}
	tip := fmt.Sprintf("%s\n%s\nbytes %d–%d of %d–%d", strings.Join(cl.names, " | "), strings.Join(cl.types, " | "), a, b-1, cl.off, cl.end-1)
	if len(who) > 0 {
		tip += "\n" + strings.Join(who, ", ")
	} else {
		tip += "\nno path touches it"
	}
	if len(bands) == 0 {
		c.rect("untouched", x0, y, w, mapRowH, "#ececec", "")
	}
	bandY, bandH := y+mapNameH, mapRowH-mapNameH
	for i, bd := range bands {
		h := bandH / float64(len(bands))
		for _, r := range bd.ranges {
			e := c.rect("band", mapLeft+float64(r[0]-start)*scale, bandY+float64(i)*h, float64(r[1]-r[0])*scale, h, bd.p.color, "")
			e.Data = bd.p.name
			if r[2] == 0 {
				e.Opacity = "0.55"
			}
		}
	}
	// The segment itself is drawn last, as an outline that carries the
	// tooltip over the bands.
	seg := c.rect("segment", x0, y, w, mapRowH, "none", tip)
	seg.Data = strings.Join(cl.paths, " ")
	if name := fitName(cl.paths[0], w-4); name != "" {
		c.text("member-label", x0+w/2, y+11, "middle", name)
	}
}

// aggregate is a struct or union near the top of the layout, whose start
// is flagged on the maps: the member names alone do not say whether a
// "clock" is timekeeper.tkr_mono's or shadow_timekeeper.tkr_raw's.
type aggregate struct {
	off  int64
	name string
}

// aggregates returns the structs and unions at the first two levels, one
// per offset: the deepest that starts there.
func aggregates(s *layoutjson.Struct) []aggregate {
	var out []aggregate
	for _, f := range s.Fields {
		if (f.Kind != "struct" && f.Kind != "union") || f.Size == 0 || strings.Count(f.Path, ".") > 1 {
			continue
		}
		if n := len(out); n > 0 && out[n-1].off == f.Offset {
			out[n-1].name = f.Path
			continue
		}
		out = append(out, aggregate{f.Offset, f.Path})
	}
	slices.SortStableFunc(out, func(a, b aggregate) int { return cmp.Compare(a.off, b.off) })
	return out
}

// flags marks, on the row of the line holding object bytes [lo, hi), where
// each aggregate starts, with its name above the row as far as the next.
func flags(c *svgChart, aggs []aggregate, lo, hi, start int64, y, scale float64) {
	for i, a := range aggs {
		if a.off < lo || a.off >= hi {
			continue
		}
		x0 := mapLeft + float64(a.off-start)*scale
		room := mapLeft + mapRowW + mapRight - x0
		if i+1 < len(aggs) && aggs[i+1].off < hi {
			room = float64(aggs[i+1].off-a.off) * scale
		}
		c.line("struct-flag", x0, y-14, x0, y+mapRowH)
		if name := fitStart(a.name, room-8); name != "" {
			c.text("struct-label", x0+3, y-4, "start", name).Tip = a.name
		}
	}
}

// fitStart shortens a name to what fits in w pixels of struct labels,
// cutting at the end.
func fitStart(name string, w float64) string {
	const cw = 5.5
	r := []rune(name)
	if float64(len(r))*cw <= w {
		return name
	}
	n := int(w / cw)
	if n < 3 {
		return ""
	}
	return string(r[:n-1]) + "…"
}

// touched returns the parts of [a, b) that the touches cover, as
// {off, end, writes} in offset order, with adjacent parts of the same kind
// merged.
func touched(ts []access.Touch, a, b int64) [][3]int64 {
	cuts := []int64{a, b}
	for _, t := range ts {
		if t.Offset < b && a < t.End {
			cuts = append(cuts, max(t.Offset, a), min(t.End, b))
		}
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	var out [][3]int64
	for i := 0; i+1 < len(cuts); i++ {
		lo, hi := cuts[i], cuts[i+1]
		hit, writes := false, int64(0)
		for _, t := range ts {
			if t.Offset < hi && lo < t.End {
				hit = true
				if t.Op.Writes() {
					writes = 1
				}
			}
		}
		if !hit {
			continue
		}
		if n := len(out); n > 0 && out[n-1][1] == lo && out[n-1][2] == writes {
			out[n-1][1] = hi
			continue
		}
		out = append(out, [3]int64{lo, hi, writes})
	}
	return out
}

// fitName shortens a member path to what fits in w pixels: its last
// component (the flags above the row name the structs around it), cut
// short when it does not fit.
func fitName(path string, w float64) string {
	last := []rune(path[strings.LastIndex(path, ".")+1:])
	if float64(len(last))*charW <= w {
		return string(last)
	}
	if n := int(w / charW); n >= 3 {
		return string(last[:n-1]) + "…"
	}
	return ""
}

// label writes a small centred label inside a gap when it fits, shortened
// to the first word when only that does.
func label(c *svgChart, class string, x, y, w float64, texts ...string) {
	for _, t := range texts {
		if float64(len([]rune(t)))*charW <= w-4 {
			c.text(class, x+w/2, y+mapRowH/2+4, "middle", t)
			return
		}
	}
}

// shareNote writes, right of a line, who shares it: false sharing first,
// then true sharing, contention and exposure to neighbours.
func shareNote(c *svgChart, cs *render.CheckCase, li int64, y float64) {
	if cs == nil {
		return
	}
	var sl *render.CheckSharedLine
	for i := range cs.Shared {
		if cs.Shared[i].Index == li {
			sl = &cs.Shared[i]
		}
	}
	if sl == nil {
		return
	}
	kinds := map[string][]string{}
	var order []string
	for _, p := range sl.Pairs {
		if _, ok := kinds[p.Sharing]; !ok {
			order = append(order, p.Sharing)
		}
		kinds[p.Sharing] = append(kinds[p.Sharing], p.Writer+" × "+p.Other)
	}
	x := mapLeft + mapRowW + 10
	var notes [][2]string
	for _, k := range []string{"false", "true", "contended"} {
		pairs := kinds[k]
		if len(pairs) == 0 {
			continue
		}
		var text string
		switch k {
		case "false":
			text = fmt.Sprintf("FALSE sharing: %d pair", len(pairs))
		case "true":
			text = fmt.Sprintf("true sharing: %d pair", len(pairs))
		case "contended":
			text = fmt.Sprintf("contended: %d path", len(pairs))
		}
		if len(pairs) > 1 {
			text += "s"
		}
		notes = append(notes, [2]string{"share-" + k, text + "\n" + strings.Join(pairs, "\n")})
	}
	if (sl.ExposedBefore > 0 || sl.ExposedAfter > 0) && len(sl.Touchers) > 0 {
		notes = append(notes, [2]string{"share-exposed", "shared with neighbours\n" + strings.Join(sl.Touchers, ", ") + " touch a line that neighbours share"})
	}
	for i, n := range notes {
		if i == 2 {
			break
		}
		head, _, _ := strings.Cut(n[1], "\n")
		c.text("share-note "+n[0], x, y+14+float64(i)*15, "start", head).Tip = n[1]
	}
}
