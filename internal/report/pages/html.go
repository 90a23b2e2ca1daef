package pages

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/mglayout/mglayout/internal/report"
	"github.com/mglayout/mglayout/probe/host"
	"github.com/mglayout/mglayout/probe/tables"
)

// HTML writes the report as one self-contained HTML file: inline CSS and
// inline SVG charts drawn here, nothing fetched at view time. It holds the
// host, the verdict table, a cache-line map per layout, line size and
// phase, the interference sweep, and per probe the ops/s of every path
// with its 95 % interval. The output depends only on r.
func HTML(w io.Writer, r *report.Report) error {
	page := newHTMLPage(r)
	var b bytes.Buffer
	if err := htmlTemplate().Execute(&b, page); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

// The page is built in two steps: the geometry of every chart is computed
// into plain values (numbers already formatted, so that the output is
// byte-for-byte reproducible), then html/template writes them through
// report.html.tmpl, escaping every name that comes from the report.

type htmlPage struct {
	Title      string
	Started    string
	Complete   bool
	Incomplete string
	Host       []htmlKV
	Caches     string
	Lines      string
	// Conclusions are the one line of each change, with its outcome as
	// a class.
	Conclusions []htmlConclusion
	Verdicts    []htmlVerdict
	Layouts     []htmlLayout
	Sweep       *htmlSweep
	Probes      []htmlProbe
	// Clocks and Kernel are the text tables of the clock reads and the
	// pipe workloads, shown as they are.
	Clocks, Kernel string
}

type htmlKV struct{ K, V string }

type htmlConclusion struct{ Text, Class string }

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
	// Predicted is the static prediction beside it; Disagrees flags a
	// contradiction.
	Predicted string
	Disagrees bool
}

type htmlLayout struct {
	Name    string
	Summary string
	// Placement is a placed variable's address and neighbours.
	Placement string
	Doc       string
	Legend    *svgChart
	Maps      []htmlMap
	Notes     []string
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

func newHTMLPage(r *report.Report) *htmlPage {
	p := &htmlPage{
		Title:      "mglayout report, " + r.Started.Format("2006-01-02 15:04 MST"),
		Started:    r.Started.Format("2006-01-02 15:04:05 MST"),
		Complete:   r.Complete,
		Incomplete: r.Incomplete,
	}
	for _, c := range r.Conclusions {
		p.Conclusions = append(p.Conclusions, htmlConclusion{Text: c.Text, Class: map[string]string{
			"against the prediction": "worse"}[c.Outcome]})
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
		if tables.Clocks(&b, r.Clocks) == nil {
			p.Clocks = b.String()
		}
	}
	if r.Kernel != nil {
		var b strings.Builder
		fmt.Fprintf(&b, "kernel %s, nearest model %s %s\n\n", r.Kernel.Release, r.Kernel.Model, r.Kernel.ModelNote)
		if tables.Kernel(&b, r.Kernel) == nil {
			p.Kernel = b.String()
		}
	}
	return p
}

func trimFloat(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func newHTMLVerdict(r *report.Report, v report.Verdict) htmlVerdict {
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

func newHTMLMeasure(m report.Comparison) htmlMeasure {
	hm := htmlMeasure{Probe: m.Probe, Path: m.Path, Text: m.Shown(), P: m.Evidence(), Predicted: m.Predicted, Disagrees: m.Disagrees}
	if m.Significant {
		hm.Class = "better"
		if m.Delta < 0 {
			hm.Class = "worse"
		}
	}
	if m.Disagrees {
		// Against the prediction, faster or slower: flagged, not
		// coloured as a gain.
		hm.Class = "worse"
	}
	return hm
}

// htmlSource is the page template, kept in a file of its own so that it
// is read and diffed as HTML.
//
//go:embed report.html.tmpl
var htmlSource string

// htmlTemplate is parsed on first use, not at every start of the binary
// (go vet starts it once for each package).
var htmlTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Parse(htmlSource))
})
