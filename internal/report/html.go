package report

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/mglayout/mglayout/internal/textfmt"
	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/layout/render"
	"github.com/mglayout/mglayout/probe"
	"github.com/mglayout/mglayout/probe/host"
	"github.com/mglayout/mglayout/probe/stats"
)

// HTML writes the report as one self-contained HTML file: inline CSS and
// inline SVG charts drawn here, nothing fetched at view time. It holds the
// host, the verdict table, a cache-line map per layout, line size and
// phase, the interference sweep, and per probe the ops/s of every path
// with its 95 % interval. The output depends only on r.
func HTML(w io.Writer, r *Report) error {
	page := newHTMLPage(r)
	var b bytes.Buffer
	if err := htmlTemplate().Execute(&b, page); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

// The page is built in two steps: the geometry of every chart is computed
// here into plain values (numbers already formatted, so that the output is
// byte-for-byte reproducible), then html/template writes them, escaping
// every name that comes from the report.

type htmlPage struct {
	Title      string
	Started    string
	Complete   bool
	Incomplete string
	Host       []htmlKV
	Caches     string
	Lines      string
	Verdicts   []htmlVerdict
	Layouts    []htmlLayout
	Sweep      *htmlSweep
	Probes     []htmlProbe
	// Clocks and Kernel are the text tables of the clock reads and the
	// pipe workloads, shown as they are.
	Clocks, Kernel string
}

type htmlKV struct{ K, V string }

type htmlVerdict struct {
	Change   string
	Line     string
	Static   string
	Measured []htmlMeasure
	Why      []string
}

type htmlMeasure struct {
	Probe, Path, Text, P string
	Class                string // "worse", "better" or "" (not significant)
}

type htmlLayout struct {
	Name    string
	Summary string
	Doc     string
	Legend  *svgChart
	Maps    []htmlMap
	Notes   []string
}

type htmlMap struct {
	Title string
	Chart *svgChart
}

type htmlSweep struct {
	Chart *svgChart
	Note  string
}

type htmlProbe struct {
	Title       string
	Mode        string
	Note        string
	Skipped     string
	Chart       *svgChart
	Comparisons []htmlMeasure
}

// svgChart is one inline SVG: its size and the shapes in drawing order.
type svgChart struct {
	Class string
	Label string
	W, H  string
	Els   []svgEl
}

// svgEl is one SVG shape; K says which, and only its attributes are set.
// Numbers are preformatted; Class names what it shows (the tests count
// "segment", "point", "bar").
type svgEl struct {
	K                       string // rect, line, circle, text, path
	Class                   string
	X, Y, W, H              string
	X2, Y2, R               string
	D                       string
	Fill, Stroke, Opacity   string
	Anchor, Transform, Dash string
	Text, Tip               string
	Data                    string
}

func (c *svgChart) add(e svgEl) { c.Els = append(c.Els, e) }

func (c *svgChart) rect(class string, x, y, w, h float64, fill, tip string) *svgEl {
	c.add(svgEl{K: "rect", Class: class, X: num(x), Y: num(y), W: num(max(w, 0)), H: num(max(h, 0)), Fill: fill, Tip: tip})
	return &c.Els[len(c.Els)-1]
}

func (c *svgChart) line(class string, x1, y1, x2, y2 float64) *svgEl {
	c.add(svgEl{K: "line", Class: class, X: num(x1), Y: num(y1), X2: num(x2), Y2: num(y2)})
	return &c.Els[len(c.Els)-1]
}

func (c *svgChart) text(class string, x, y float64, anchor, s string) *svgEl {
	c.add(svgEl{K: "text", Class: class, X: num(x), Y: num(y), Anchor: anchor, Text: s})
	return &c.Els[len(c.Els)-1]
}

func (c *svgChart) circle(class string, x, y, r float64, fill, tip string) *svgEl {
	c.add(svgEl{K: "circle", Class: class, X: num(x), Y: num(y), R: num(r), Fill: fill, Tip: tip})
	return &c.Els[len(c.Els)-1]
}

func newChart(class, label string, w, h float64) *svgChart {
	return &svgChart{Class: class, Label: label, W: num(w), H: num(h)}
}

// num formats a coordinate with at most one decimal.
func num(v float64) string {
	v = math.Round(v*10) / 10
	if v == 0 {
		v = 0 // no "-0"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func newHTMLPage(r *Report) *htmlPage {
	p := &htmlPage{
		Title:      "mglayout report, " + r.Started.Format("2006-01-02 15:04 MST"),
		Started:    r.Started.Format("2006-01-02 15:04:05 MST"),
		Complete:   r.Complete,
		Incomplete: r.Incomplete,
	}
	if p.Incomplete == "" && !r.Complete {
		p.Incomplete = "the run did not finish; the sections hold what was measured"
	}
	var ls []string
	for _, l := range r.Lines {
		ls = append(ls, fmt.Sprintf("%d B", l))
	}
	p.Lines = strings.Join(ls, ", ")
	if info := r.Host.Info; info != nil {
		p.Host = append(p.Host, htmlKV{"CPU", orDash(info.CPUID.Brand)}, htmlKV{"system", info.GOOS + "/" + info.GOARCH},
			htmlKV{"CPUs", orDash(host.FormatCPUList(info.Affinity))})
		var caches []string
		for _, c := range info.Caches {
			caches = append(caches, fmt.Sprintf("L%d %s %d B (%s)", c.Level, strings.ToLower(c.Type), c.Line.Bytes, c.Line.Source))
		}
		p.Caches = strings.Join(caches, ", ")
	}
	p.Host = append(p.Host, htmlKV{"kernel", orDash(r.Host.Kernel)}, htmlKV{"native line", fmt.Sprintf("%d B", r.Host.Line)},
		htmlKV{"date", p.Started}, htmlKV{"budget", fmt.Sprintf("%s s, used %s s", trimFloat(r.Budget), trimFloat(r.Seconds))})

	for _, v := range r.Verdicts {
		p.Verdicts = append(p.Verdicts, newHTMLVerdict(r, v))
	}
	colors := pathColors(r)
	for i := range r.Layouts.Structs {
		p.Layouts = append(p.Layouts, newHTMLLayout(r, i, colors))
	}
	if r.Sweep != nil {
		p.Sweep = newHTMLSweep(r.Sweep)
	}
	for _, pr := range r.Probes {
		p.Probes = append(p.Probes, newHTMLProbe(pr))
	}
	if r.Clocks != nil {
		var b strings.Builder
		if probe.WriteClocks(&b, r.Clocks) == nil {
			p.Clocks = b.String()
		}
	}
	if r.Kernel != nil {
		var b strings.Builder
		fmt.Fprintf(&b, "kernel %s, nearest model %s %s\n\n", r.Kernel.Release, r.Kernel.Model, r.Kernel.ModelNote)
		if probe.WriteKernelFigures(&b, r.Kernel) == nil {
			p.Kernel = b.String()
		}
	}
	return p
}

func plural(n int64, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func trimFloat(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func newHTMLVerdict(r *Report, v Verdict) htmlVerdict {
	hv := htmlVerdict{Change: v.Old + " → " + v.New, Line: fmt.Sprintf("%d B", v.Line), Static: v.Static}
	for _, m := range v.Measured {
		hv.Measured = append(hv.Measured, newHTMLMeasure(m))
	}
	// Why: the rows of the diff that changed at this line size.
	for _, d := range r.Diffs {
		if d.Old != v.Old || d.New != v.New {
			continue
		}
		var why []string
		for _, row := range d.Rows {
			if row.Line != v.Line || row.Verdict == "same" {
				continue
			}
			why = append(why, fmt.Sprintf("%s, phase %d: %s (%s)", row.Path, row.Phase, row.Verdict, strings.Join(row.Changes, "; ")))
		}
		const most = 6
		if len(why) > most {
			why = append(why[:most], fmt.Sprintf("and %d more rows", len(why)-most))
		}
		hv.Why = append(hv.Why, why...)
	}
	return hv
}

func newHTMLMeasure(m Comparison) htmlMeasure {
	hm := htmlMeasure{Probe: m.Probe, Path: m.Path, Text: m.Text, P: fmt.Sprintf("p=%.3f", m.P)}
	if m.Significant {
		hm.Class = "better"
		if m.Delta < 0 {
			hm.Class = "worse"
		}
	}
	return hm
}

// Colours. Writer paths take warm colours and readers cool ones, so that
// a line where red meets blue is a line a writer dirties under a reader.
var (
	writerPalette  = []string{"#d62728", "#ff7f0e", "#8c564b", "#e377c2", "#bcbd22", "#b5651d"}
	readerPalette  = []string{"#1f77b4", "#2ca02c", "#17becf", "#9467bd", "#393b79", "#637939", "#7b4173", "#6baed6"}
	variantPalette = []string{"#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948", "#9c755f", "#e15759"}
)

// pathColors gives every path name of the report one colour, in the order
// the checks list them.
func pathColors(r *Report) map[string]string {
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
func leafCells(s *render.JSONStruct) []cell {
	var cells []cell
	fields := slices.Clone(s.Fields)
	slices.SortStableFunc(fields, func(a, b render.JSONField) int { return cmp.Compare(a.Offset, b.Offset) })
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
// layout is read back through render.ReadJSON so that member paths
// resolve exactly as the analysis resolved them (arrays, elements).
func resolvePaths(s *render.JSONStruct, co *render.CheckObject, colors map[string]string) ([]mapPath, []string) {
	if co == nil {
		return nil, nil
	}
	var notes []string
	one := *s
	one.Paths = nil
	data, err := json.Marshal(render.JSONDocument{Structs: []render.JSONStruct{one}})
	if err != nil {
		return nil, []string{"cannot read the layout back: " + err.Error()}
	}
	structs, _, err := render.ReadJSON(bytes.NewReader(data))
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
		ts, err := access.Resolve(p, structs[0])
		if err != nil {
			notes = append(notes, fmt.Sprintf("path %s not drawn: %v", jp.Name, err))
			continue
		}
		out = append(out, mapPath{name: jp.Name, color: colors[jp.Name], writes: p.Writes(), spec: jp.Spec, touches: ts})
	}
	return out, notes
}

func checkObject(r *Report, i int) *render.CheckObject {
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

func newHTMLLayout(r *Report, i int, colors map[string]string) htmlLayout {
	s := &r.Layouts.Structs[i]
	co := checkObject(r, i)
	hl := htmlLayout{Name: s.Name, Doc: s.Doc}
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
		s.Size, s.Source, s.Arch, s.Align, strings.Join(lines, ", "), len(s.Holes), plural(int64(len(s.Holes)), "hole"), s.TailPadding, fs)

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
func lineMap(s *render.JSONStruct, cells []cell, paths []mapPath, co *render.CheckObject, line, phase int64) *svgChart {
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
		if end > s.Size {
			w := float64(end-s.Size) * scale
			c.rect("outside", x(s.Size-start), y, w, mapRowH, "none", fmt.Sprintf("%d bytes after the object: whatever follows it", end-s.Size))
			label(c, "outside-label", x(s.Size-start), y, w, "neighbour")
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
func aggregates(s *render.JSONStruct) []aggregate {
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

// Geometry of the sweep chart: two panels, writer above reader, sharing
// the distance axis.
const (
	swLeft   = 78.0
	swPlotW  = 780.0
	swRight  = 200.0
	swTop    = 28.0
	swPanelH = 200.0
	swPanelG = 44.0
	swBottom = 46.0
)

func newHTMLSweep(sw *Sweep) *htmlSweep {
	hs := &htmlSweep{}
	switch d := sw.Distance; {
	case d < 0:
		hs.Note = "The writer is slower than at the far control at every distance measured."
	case d == 0:
		hs.Note = "The writer is never significantly slower than at the far control."
	default:
		hs.Note = fmt.Sprintf("Destructive-interference distance: %d bytes: a reader closer than that slows the writer down.", d)
	}
	hs.Note += fmt.Sprintf(" %d rounds; far control at %d bytes.", sw.Rounds, sw.Far.Distance)

	h := swTop + 2*swPanelH + swPanelG + swBottom
	c := newChart("chart sweep", "interference sweep: ops/s against the distance between writer and reader", swLeft+swPlotW+swRight, h)
	var maxD int64 = 1
	for _, p := range sw.Points {
		maxD = max(maxD, p.Distance)
	}
	// Distances tick at powers of two, as line sizes do.
	xstep := 1.0
	for xstep*8 < float64(maxD) {
		xstep *= 2
	}
	xmax := math.Ceil(float64(maxD)/xstep) * xstep
	x := func(d float64) float64 { return swLeft + d/xmax*swPlotW }

	panels := []struct {
		name, class, color string
		stat               func(SweepPoint) Stat
	}{
		{"writer", "writer", "#d62728", func(p SweepPoint) Stat { return p.Writer }},
		{"reader", "reader", "#1f77b4", func(p SweepPoint) Stat { return p.Reader }},
	}
	for pi, pn := range panels {
		top := swTop + float64(pi)*(swPanelH+swPanelG)
		ymax := 0.0
		for _, p := range append(slices.Clone(sw.Points), sw.Far) {
			st := pn.stat(p)
			ymax = max(ymax, st.Hi, st.Median)
		}
		ticks, ytop := axisTicks(ymax)
		y := func(v float64) float64 { return top + swPanelH - v/ytop*swPanelH }
		for _, t := range ticks {
			c.line("grid", swLeft, y(t), swLeft+swPlotW, y(t))
			c.text("tick-label", swLeft-6, y(t)+4, "end", textfmt.SI(t))
		}
		c.text("axis-label", 16, top+swPanelH/2, "middle", pn.name+" ops/s").Transform = fmt.Sprintf("rotate(-90 16 %s)", num(top+swPanelH/2))
		for d := 0.0; d <= xmax; d += xstep {
			c.line("tick", x(d), top+swPanelH, x(d), top+swPanelH+5)
			c.text("tick-label", x(d), top+swPanelH+17, "middle", strconv.FormatFloat(d, 'f', -1, 64))
		}
		c.line("axis", swLeft, top, swLeft, top+swPanelH)
		c.line("axis", swLeft, top+swPanelH, swLeft+swPlotW, top+swPanelH)

		// The far control: its interval as a band, its median dashed.
		far := pn.stat(sw.Far)
		if far.N > 0 {
			c.rect("far-band", swLeft, y(far.Hi), swPlotW, y(far.Lo)-y(far.Hi), "", fmt.Sprintf("far control at %d B: %s, 95%% interval %s–%s", sw.Far.Distance, textfmt.SI(far.Median), textfmt.SI(far.Lo), textfmt.SI(far.Hi)))
			c.line("far", swLeft, y(far.Median), swLeft+swPlotW, y(far.Median))
			c.text("far-label", swLeft+swPlotW+8, y(far.Median)+4, "start", fmt.Sprintf("far control (%d B): %s", sw.Far.Distance, textfmt.SI(far.Median)))
			c.text("far-label", swLeft+swPlotW+8, y(far.Median)+18, "start", "shaded: its 95 % interval")
		}
		var d strings.Builder
		for i, p := range sw.Points {
			st := pn.stat(p)
			if st.N == 0 {
				continue
			}
			if i == 0 || d.Len() == 0 {
				d.WriteString("M")
			} else {
				d.WriteString(" L")
			}
			d.WriteString(num(x(float64(p.Distance))) + " " + num(y(st.Median)))
		}
		if d.Len() > 0 {
			c.add(svgEl{K: "path", Class: "series " + pn.class, D: d.String(), Stroke: pn.color})
		}
		for _, p := range sw.Points {
			st := pn.stat(p)
			if st.N == 0 {
				continue
			}
			px := x(float64(p.Distance))
			c.line("errorbar "+pn.class, px, y(st.Lo), px, y(st.Hi)).Stroke = pn.color
			c.line("errorbar "+pn.class, px-3, y(st.Lo), px+3, y(st.Lo)).Stroke = pn.color
			c.line("errorbar "+pn.class, px-3, y(st.Hi), px+3, y(st.Hi)).Stroke = pn.color
			c.circle("point "+pn.class, px, y(st.Median), 3.5, pn.color,
				fmt.Sprintf("%s at %d B: %s ops/s, 95%% interval %s–%s (n=%d)", pn.name, p.Distance, textfmt.SI(st.Median), textfmt.SI(st.Lo), textfmt.SI(st.Hi), st.N))
		}
		c.text("panel-title", swLeft+8, top+14, "start", pn.name+" (median and 95 % interval per distance)")
	}
	bottom := swTop + 2*swPanelH + swPanelG
	c.text("axis-label", swLeft+swPlotW/2, bottom+36, "middle", "distance from the writer's word to the reader's (bytes)")
	if sw.Distance > 0 && float64(sw.Distance) <= xmax {
		kx := x(float64(sw.Distance))
		c.line("knee", kx, swTop-6, kx, bottom)
		c.text("knee-label", kx+4, swTop-10, "start", fmt.Sprintf("interference distance %d B", sw.Distance))
	}
	hs.Chart = c
	return hs
}

// niceStep rounds a step up to 1, 2 or 5 times a power of ten.
func niceStep(raw float64) float64 {
	if raw <= 0 || math.IsNaN(raw) || math.IsInf(raw, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if raw <= m*p {
			return m * p
		}
	}
	return 10 * p
}

// axisTicks returns the ticks of an axis from 0 past v, and its top.
func axisTicks(v float64) ([]float64, float64) {
	if v <= 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		v = 1
	}
	step := niceStep(v / 5)
	top := math.Ceil(v/step) * step
	var ticks []float64
	for i := 0; float64(i)*step <= top*(1+1e-9); i++ {
		ticks = append(ticks, float64(i)*step)
	}
	return ticks, top
}

// Geometry of the probe charts: a row per case, grouped by path.
const (
	prLeft   = 300.0
	prPlotW  = 720.0
	prRight  = 90.0
	prTop    = 34.0
	prBarH   = 18.0
	prBarG   = 5.0
	prGroupH = 22.0
	prBottom = 48.0
)

func newHTMLProbe(p *Probe) htmlProbe {
	hp := htmlProbe{Title: p.Title, Mode: fmt.Sprintf("%s, %d-byte lines", p.Mode, p.Line), Skipped: p.Skipped}
	if p.Mode == "emulated" {
		hp.Note = fmt.Sprintf("Emulated on this host's %d-byte lines: each target line's accessed words packed into a host line of its own. ", p.HostLine)
	}
	if p.Skipped != "" {
		return hp
	}
	writers := "the writers at their rate"
	if p.Stress {
		writers = "the writers unthrottled"
	}
	hp.Note += fmt.Sprintf("%d rounds of %s ms, interleaved; each path beside %s and alone.", p.Rounds, trimFloat(math.Round(1000*p.Seconds)), writers)
	for _, m := range p.Comparisons {
		hp.Comparisons = append(hp.Comparisons, newHTMLMeasure(m))
		hp.Comparisons[len(hp.Comparisons)-1].Probe = m.New + " vs " + m.Old
	}
	if len(p.Cases) > 0 {
		hp.Chart = probeChart(p)
	}
	return hp
}

func probeChart(p *Probe) *svgChart {
	var paths []string
	for _, c := range p.Cases {
		if !slices.Contains(paths, c.Path) {
			paths = append(paths, c.Path)
		}
	}
	variants := slices.Clone(p.Variants)
	for _, c := range p.Cases {
		if !slices.Contains(variants, c.Variant) {
			variants = append(variants, c.Variant)
		}
	}
	vmax := 0.0
	for _, c := range p.Cases {
		vmax = max(vmax, c.Stat.Hi, c.Stat.Median)
	}
	ticks, top := axisTicks(vmax)
	h := prTop + float64(len(paths))*prGroupH + float64(len(p.Cases))*(prBarH+prBarG) + prBottom
	c := newChart("chart probe", fmt.Sprintf("%s, %s: ops/s per path and variant", p.Title, p.Mode), prLeft+prPlotW+prRight, h)
	x := func(v float64) float64 { return prLeft + v/top*prPlotW }
	plotBottom := h - prBottom

	// Legend: the variants' colours, and what pale means.
	lx := 8.0
	for i, v := range variants {
		c.rect("swatch", lx, 6, 14, 14, variantPalette[i%len(variantPalette)], v)
		c.text("legend-text", lx+20, 17, "start", trunc(v, 40))
		lx += 20 + float64(len([]rune(trunc(v, 40))))*6.2 + 18
	}
	c.rect("swatch", lx, 6, 14, 14, "#999999", "").Opacity = "0.4"
	c.text("legend-text", lx+20, 17, "start", "pale: alone, without the writers")

	for _, t := range ticks {
		c.line("grid", x(t), prTop, x(t), plotBottom)
		c.line("tick", x(t), plotBottom, x(t), plotBottom+5)
		c.text("tick-label", x(t), plotBottom+17, "middle", textfmt.SI(t))
	}
	c.line("axis", prLeft, prTop, prLeft, plotBottom)
	c.line("axis", prLeft, plotBottom, prLeft+prPlotW, plotBottom)
	c.text("axis-label", prLeft+prPlotW/2, plotBottom+38, "middle", "ops/s of the path (median; whiskers: 95 % interval)")

	y := prTop
	for _, path := range paths {
		c.text("group-label", 8, y+15, "start", trunc(path, 46))
		y += prGroupH
		for _, cs := range p.Cases {
			if cs.Path != path {
				continue
			}
			vi := slices.Index(variants, cs.Variant)
			color := variantPalette[vi%len(variantPalette)]
			with := "beside writers"
			if !cs.Writers {
				with = "alone"
			}
			c.text("row-label", prLeft-8, y+13, "end", trunc(cs.Variant, 30)+", "+with)
			st := cs.Stat
			interval := "95% interval"
			if st.N < stats.MinForCI {
				interval = "range (too few samples for a 95% interval)"
			}
			tip := fmt.Sprintf("%s, %s, %s: %s ops/s, %s %s–%s, n=%d, %d CPUs", cs.Variant, cs.Path, with, textfmt.SI(st.Median), interval, textfmt.SI(st.Lo), textfmt.SI(st.Hi), st.N, cs.CPUs)
			bar := c.rect("bar", prLeft, y, x(st.Median)-prLeft, prBarH, color, tip)
			bar.Data = cs.Variant + "|" + cs.Path + "|" + with
			if !cs.Writers {
				bar.Opacity = "0.4"
			}
			cy := y + prBarH/2
			if st.N > 0 && st.Hi > st.Lo {
				c.line("whisker", x(st.Lo), cy, x(st.Hi), cy)
				c.line("whisker", x(st.Lo), cy-5, x(st.Lo), cy+5)
				c.line("whisker", x(st.Hi), cy-5, x(st.Hi), cy+5)
			}
			c.text("value-label", max(x(st.Median), x(st.Hi))+6, y+13, "start", textfmt.SI(st.Median))
			y += prBarH + prBarG
		}
	}
	return c
}

// htmlTemplate is parsed on first use, not at every start of the binary
// (go vet starts it once for each package).
var htmlTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="mglayout report">
<title>{{.Title}}</title>
<style>
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: #1b1b1b; background: #ffffff; margin: 0; }
main { max-width: 1200px; margin: 0 auto; padding: 16px 20px 48px; }
h1 { font-size: 22px; margin: 8px 0 4px; }
h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid #d0d0d0; padding-bottom: 3px; }
h3 { font-size: 15px; margin: 18px 0 6px; }
h4 { font-size: 13px; margin: 12px 0 2px; color: #444; font-weight: 600; }
p { margin: 4px 0 8px; }
code, .mono { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12.5px; }
.banner { background: #fff3cd; border: 1px solid #e0b000; border-left: 6px solid #e0b000; padding: 8px 12px; margin: 10px 0; font-weight: 600; }
.host { border-collapse: collapse; margin: 6px 0; }
.host th { text-align: left; font-weight: 600; padding: 1px 14px 1px 0; color: #555; }
.host td { padding: 1px 0; }
table.verdicts, table.cmp { border-collapse: collapse; width: 100%; margin: 6px 0 10px; }
table.verdicts th, table.verdicts td, table.cmp th, table.cmp td { border: 1px solid #d6d6d6; padding: 4px 8px; text-align: left; vertical-align: top; }
table.verdicts th, table.cmp th { background: #f3f3f3; }
td.num { text-align: right; white-space: nowrap; }
.static { display: inline-block; padding: 0 8px; border-radius: 9px; font-weight: 700; font-size: 12px; text-transform: uppercase; }
.static-worse { background: #fbd5d5; color: #9b1c1c; }
.static-better { background: #d3f2d8; color: #1d6b2c; }
.static-same { background: #e6e6e6; color: #444; }
.worse { color: #b3141b; font-weight: 700; }
.better { color: #1d7a33; font-weight: 700; }
ul.tight { margin: 0; padding-left: 18px; }
.muted { color: #666; }
.skipped { background: #f4f4f4; border-left: 4px solid #999; padding: 6px 10px; }
svg.chart, svg.legend { display: block; max-width: 100%; height: auto; margin: 2px 0 6px; }
svg text { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; font-size: 11px; fill: #222; }
svg .member-label, svg .hole-label, svg .outside-label { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 10px; }
svg .hole-label, svg .outside-label { fill: #666; }
svg .struct-label { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 9.5px; fill: #333; font-style: italic; }
svg .struct-flag { stroke: #222; stroke-width: 1.6; }
svg .row-label { font-weight: 600; }
svg .row-sub, svg .tick-label { fill: #555; font-size: 10px; }
svg .axis-label { fill: #333; font-size: 12px; }
svg .panel-title, svg .group-label { font-weight: 600; font-size: 12px; }
svg .line-box { stroke: #444; stroke-width: 1.2; }
svg .segment { stroke: #777; stroke-width: 0.8; pointer-events: all; }
svg .hole { stroke: #aaa; stroke-width: 0.6; }
svg .outside { stroke: #999; stroke-dasharray: 4 3; fill: #ffffff; }
svg .tick, svg .axis { stroke: #444; }
svg .grid { stroke: #e4e4e4; }
svg .swatch { stroke: #555; stroke-width: 0.6; }
svg .share-false { fill: #b3141b; font-weight: 700; }
svg .share-true { fill: #555; }
svg .share-contended { fill: #9c5b00; }
svg .share-exposed { fill: #7a4f00; }
svg .series { fill: none; stroke-width: 1.6; }
svg .errorbar { stroke-width: 1.1; }
svg .point { stroke: #ffffff; stroke-width: 1; }
svg .far { stroke: #555; stroke-dasharray: 6 4; }
svg .far-band { fill: #000000; fill-opacity: 0.06; }
svg .far-label { fill: #444; }
svg .knee { stroke: #6a1b9a; stroke-width: 1.6; stroke-dasharray: 5 3; }
svg .knee-label { fill: #6a1b9a; font-weight: 700; }
svg .bar { stroke: #333; stroke-width: 0.5; }
svg .whisker { stroke: #111; stroke-width: 1.2; }
svg .value-label { fill: #222; }
</style>
</head>
<body>
<svg class="defs" width="0" height="0" style="position:absolute" aria-hidden="true"><defs>
<pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#f2f2f2"></rect><line x1="0" y1="0" x2="0" y2="6" stroke="#b5b5b5" stroke-width="2.2"></line></pattern>
</defs></svg>
<main>
<h1>{{.Title}}</h1>
{{if not .Complete}}<div class="banner" role="alert">Incomplete report: {{.Incomplete}}</div>
{{end}}<table class="host">
{{range .Host}}<tr><th>{{.K}}</th><td>{{.V}}</td></tr>
{{end}}{{if .Caches}}<tr><th>line sizes</th><td>{{.Caches}}</td></tr>
{{end}}<tr><th>analysed at</th><td>{{.Lines}}</td></tr>
</table>

<h2 id="verdicts">Verdicts</h2>
<p class="muted">Each change at each line size: the static verdict over every path and phase, and what the probes measured for the same two layouts (~ is no significant change).</p>
<table class="verdicts">
<thead><tr><th>change</th><th>line</th><th>static</th><th>why (static)</th><th>measured</th></tr></thead>
<tbody>
{{range .Verdicts}}<tr class="verdict"><td><code>{{.Change}}</code></td><td class="num">{{.Line}}</td><td><span class="static static-{{.Static}}">{{.Static}}</span></td><td>{{if .Why}}<ul class="tight">{{range .Why}}<li>{{.}}</li>{{end}}</ul>{{else}}<span class="muted">no path changes</span>{{end}}</td><td>{{if .Measured}}<ul class="tight">{{range .Measured}}<li>{{.Probe}}: <code>{{.Path}}</code> <span class="{{.Class}}">{{.Text}}</span> ({{.P}})</li>{{end}}</ul>{{else}}<span class="muted">not measured at this line size</span>{{end}}</td></tr>
{{end}}</tbody>
</table>

<h2 id="layouts">Cache-line maps</h2>
<p class="muted">One row per cache line, each line the same width whatever its size; members at their offsets, with a band per access path that touches them. Right of each line: who shares it.</p>
{{range .Layouts}}<section class="layout">
<h3><code>{{.Name}}</code></h3>
<p>{{.Summary}}{{with .Doc}} <span class="muted">{{.}}</span>{{end}}</p>
{{template "svg" .Legend}}
{{range .Maps}}<h4>{{.Title}}</h4>
{{template "svg" .Chart}}
{{end}}{{range .Notes}}<p class="muted">{{.}}</p>
{{end}}</section>
{{end}}
<h2 id="sweep">Interference sweep</h2>
{{with .Sweep}}<p>{{.Note}}</p>
{{template "svg" .Chart}}
{{else}}<p class="muted">Not measured.</p>
{{end}}
{{with .Clocks}}<h2 id="clocks">Clock reads</h2>
<pre class="figures">{{.}}</pre>
{{end}}{{with .Kernel}}<h2 id="kernel">The running kernel</h2>
<pre class="figures">{{.}}</pre>
{{end}}<h2 id="probes">Probes</h2>
{{range .Probes}}<section class="probe">
<h3>{{.Title}} <span class="muted">({{.Mode}})</span></h3>
{{if .Skipped}}{{with .Note}}<p>{{.}}</p>
{{end}}<p class="skipped"><strong>Not run:</strong> {{.Skipped}}</p>
{{else}}<p>{{.Note}}</p>
{{with .Chart}}{{template "svg" .}}{{end}}
{{if .Comparisons}}<table class="cmp">
<thead><tr><th>path</th><th>new vs old</th><th>change</th><th>p</th></tr></thead>
<tbody>
{{range .Comparisons}}<tr><td><code>{{.Path}}</code></td><td><code>{{.Probe}}</code></td><td class="num"><span class="{{.Class}}">{{.Text}}</span></td><td class="num">{{.P}}</td></tr>
{{end}}</tbody>
</table>
{{end}}{{end}}</section>
{{else}}<p class="muted">No probe ran.</p>
{{end}}</main>
</body>
</html>
{{define "svg"}}<svg class="{{.Class}}" xmlns="http://www.w3.org/2000/svg" width="{{.W}}" height="{{.H}}" viewBox="0 0 {{.W}} {{.H}}" role="img" aria-label="{{.Label}}">
{{range .Els}}{{template "el" .}}
{{end}}</svg>{{end}}
{{define "el"}}{{if eq .K "rect"}}<rect class="{{.Class}}" x="{{.X}}" y="{{.Y}}" width="{{.W}}" height="{{.H}}"{{with .Fill}} fill="{{.}}"{{end}}{{with .Opacity}} fill-opacity="{{.}}"{{end}}{{with .Data}} data-what="{{.}}"{{end}}>{{with .Tip}}<title>{{.}}</title>{{end}}</rect>
{{- else if eq .K "line"}}<line class="{{.Class}}" x1="{{.X}}" y1="{{.Y}}" x2="{{.X2}}" y2="{{.Y2}}"{{with .Stroke}} stroke="{{.}}"{{end}}></line>
{{- else if eq .K "circle"}}<circle class="{{.Class}}" cx="{{.X}}" cy="{{.Y}}" r="{{.R}}"{{with .Fill}} fill="{{.}}"{{end}}>{{with .Tip}}<title>{{.}}</title>{{end}}</circle>
{{- else if eq .K "path"}}<path class="{{.Class}}" d="{{.D}}"{{with .Stroke}} stroke="{{.}}"{{end}}></path>
{{- else if eq .K "text"}}<text class="{{.Class}}" x="{{.X}}" y="{{.Y}}"{{with .Anchor}} text-anchor="{{.}}"{{end}}{{with .Transform}} transform="{{.}}"{{end}}>{{with .Tip}}<title>{{.}}</title>{{end}}{{.Text}}</text>
{{- end}}{{end}}
`))
})
