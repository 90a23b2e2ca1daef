package pages

import (
	"math"
	"strconv"
)

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
