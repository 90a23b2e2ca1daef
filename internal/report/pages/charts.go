package pages

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/mglayout/mglayout/internal/report"
	"github.com/mglayout/mglayout/internal/textfmt"
	"github.com/mglayout/mglayout/probe"
	"github.com/mglayout/mglayout/probe/stats"
)

// variantPalette colours the variants of a probe chart.
var variantPalette = []string{"#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948", "#9c755f", "#e15759"}

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

func newHTMLSweep(sw *report.Sweep) *htmlSweep {
	hs := &htmlSweep{}
	hs.Note = sw.Verdict + fmt.Sprintf(" Far control at %d bytes.", sw.Far.Distance)

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
		stat               func(report.SweepPoint) report.Stat
	}{
		{"writer", "writer", "#d62728", func(p report.SweepPoint) report.Stat { return p.Writer }},
		{"reader", "reader", "#1f77b4", func(p report.SweepPoint) report.Stat { return p.Reader }},
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
	if sw.Kind == probe.Found && float64(sw.Distance) <= xmax {
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

func newHTMLProbe(p *report.Probe) htmlProbe {
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

func probeChart(p *report.Probe) *svgChart {
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

// trunc cuts a label to n bytes for a chart's axis, marking the cut.
func trunc(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
}
