package pages

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	goldenfile "github.com/mglayout/mglayout/internal/golden"
	"github.com/mglayout/mglayout/internal/report"
	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/layout/layoutjson"
	"github.com/mglayout/mglayout/probe"
	"github.com/mglayout/mglayout/probe/host"
)

var (
	chromium = flag.Bool("chromium", false, "render report.html in headless Chromium and check the screenshot (needs the Debian chromium package)")
)

// syntheticReport is the kernel scenario's static part, computed for real,
// with a sweep and probes of INVENTED numbers: test data of plausible
// shape, not a measurement. The recorded report in testdata/report.json is
// the real one.
func syntheticReport(t *testing.T) *report.Report {
	t.Helper()
	sc, err := report.KernelScenario()
	if err != nil {
		t.Fatal(err)
	}
	lines := []int64{64, 128}
	r := &report.Report{Schema: report.Schema, Complete: true, Started: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Seconds: 87.4, Budget: 90, Lines: lines, Probes: []*report.Probe{}, Verdicts: []report.Verdict{},
		Host: report.Host{Kernel: "6.1.0-test (synthetic)", Line: 64, Info: &host.Info{GOOS: "linux", GOARCH: "amd64",
			Caches: []host.Cache{
				{Level: 1, Type: "Data", Line: host.LineSize{Bytes: 64, Source: "sysfs"}},
				{Level: 3, Type: "Unified", Line: host.LineSize{Bytes: 64, Source: "sysfs"}},
			},
			CPUID:    host.CPUID{Brand: "Synthetic CPU for tests", Vendor: "none"},
			Affinity: []int{0, 1, 2, 3}}}}
	if err := r.Static(sc, lines); err != nil {
		t.Fatal(err)
	}

	// Invented: the writer slows down with a reader on its line and on
	// the adjacent line (the spatial prefetcher's 128-byte pairs).
	samples := func(median, spread float64, seed int) []float64 {
		out := make([]float64, 10)
		for i := range out {
			k := float64((i*7+seed*3)%10) - 4.5
			out[i] = median * (1 + spread*k/4.5)
		}
		return out
	}
	in := probe.Interference{Kind: probe.Found, Distance: 128}
	sw := &report.Sweep{Rounds: 10, Kind: in.Kind, Distance: in.Distance, Verdict: in.Verdict(10, 256)}
	for d := int64(0); d <= 256; d += 16 {
		w, rd := 150e6, 1.4e9
		switch {
		case d == 0:
			w, rd = 38e6, 310e6
		case d < 64:
			w, rd = 45e6, 350e6
		case d < 128:
			w, rd = 92e6, 900e6
		}
		sw.Points = append(sw.Points, report.SweepPoint{Distance: d, Writer: report.NewStat(samples(w, 0.12, int(d/16))), Reader: report.NewStat(samples(rd, 0.15, int(d/16)+1))})
	}
	sw.Far = report.SweepPoint{Distance: 4096, Writer: report.NewStat(samples(152e6, 0.08, 3)), Reader: report.NewStat(samples(1.42e9, 0.1, 4))}
	r.Sweep = sw

	// Invented: readers beside the tick at its rate barely notice it;
	// beside an unthrottled tick they crawl.
	for si, spec := range sc.Probes {
		for _, emulated := range []bool{false, true} {
			p := &report.Probe{Title: spec.Title, Mode: "native", Line: 64, HostLine: 64, Stress: spec.Stress, Cases: []report.ProbeCase{},
				Comparisons: []report.Comparison{}, Predicted: []report.PredictedRow{}, Rounds: 10, Seconds: 0.1}
			if emulated {
				p.Mode, p.Line = "emulated", 128
			}
			for _, v := range spec.Variants {
				p.Variants = append(p.Variants, v.Name)
			}
			p.Predicted = report.Predict(spec.Variants, probe.Options{Line: p.Line})
			if emulated && si == len(sc.Probes)-1 {
				p.Skipped = "emulating 128-byte lines: target line 0 of tk_data@v6.13 holds 72 accessed bytes, more than a 64-byte host line (synthetic)"
				p.Predicted = []report.PredictedRow{}
				r.Probes = append(r.Probes, p)
				continue
			}
			res := &probe.Result{Rounds: 10}
			for vi, v := range spec.Variants {
				for pi, name := range spec.Paths {
					path := &access.Path{Name: name}
					base := 52e6 + float64(pi)*9e6 + float64(vi)*2e6
					beside := base * 0.93
					if spec.Stress {
						beside = base * (0.01 + 0.02*float64(vi))
					}
					seed := si*7 + vi*3 + pi
					res.Cases = append(res.Cases,
						&probe.Case{Variant: v.Name, Path: path, CPUs: 1, Samples: samples(beside, 0.1, seed)},
						&probe.Case{Variant: v.Name, Path: path, Alone: true, CPUs: 1, Samples: samples(base, 0.06, seed+1)})
				}
			}
			for _, c := range res.Cases {
				p.Cases = append(p.Cases, report.ProbeCase{Variant: c.Variant, Path: c.Path.Name, Writers: !c.Alone, CPUs: c.CPUs, Stat: report.NewStat(c.Samples)})
			}
			p.Comparisons = report.Comparisons(res)
			r.Probes = append(r.Probes, p)
		}
	}
	r.Judge()
	return r
}

// recordedReport is a report recorded on a 2-CPU x86-64 VM with
// `mglayout report -o DIR -budget 60s`: real measurements.
func recordedReport(t *testing.T) *report.Report {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r report.Report
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("testdata/report.json: %v", err)
	}
	return &r
}

func renderHTML(t *testing.T, r *report.Report) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := HTML(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestHTMLSynthetic(t *testing.T) {
	r := syntheticReport(t)
	out := renderHTML(t, r)
	checkHTML(t, out, r)
	goldenfile.Check(t, filepath.Join("testdata", "report_synthetic.html"), out)

	// Deterministic: the same report renders to the same bytes.
	if again := renderHTML(t, r); !bytes.Equal(out, again) {
		t.Errorf("two renderings of the same report differ")
	}
}

func TestHTMLRecorded(t *testing.T) {
	r := recordedReport(t)
	checkHTML(t, renderHTML(t, r), r)
}

func TestHTMLIncomplete(t *testing.T) {
	r := syntheticReport(t)
	r.Complete = false
	r.Incomplete = "interrupted: the sections hold the rounds completed before the interruption"
	r.Sweep = nil
	r.Probes = r.Probes[:1]
	r.Verdicts = nil
	r.Judge()
	out := renderHTML(t, r)
	checkHTML(t, out, r)
	doc := parse(t, out)
	banners := findAll(doc, func(n *html.Node) bool { return hasClass(n, "banner") })
	if len(banners) != 1 || !strings.Contains(textOf(banners[0]), r.Incomplete) {
		t.Errorf("incomplete report: %d banners, want one saying %q", len(banners), r.Incomplete)
	}
	if r := syntheticReport(t); len(findAll(parse(t, renderHTML(t, r)), func(n *html.Node) bool { return hasClass(n, "banner") })) != 0 {
		t.Errorf("a complete report shows the incomplete banner")
	}
}

// TestHTMLEscapes checks that names from the report cannot inject markup.
func TestHTMLEscapes(t *testing.T) {
	r := syntheticReport(t)
	evil := `<script>alert(1)</script>"'&`
	r.Host.Kernel = evil
	r.Probes[0].Title = evil
	r.Probes[0].Cases[0].Variant = evil
	out := renderHTML(t, r)
	if bytes.Contains(out, []byte("<script>")) {
		t.Errorf("a name from the report reached the page as markup")
	}
	doc := parse(t, out)
	if n := len(findAll(doc, func(n *html.Node) bool { return n.Type == html.ElementNode && n.Data == "script" })); n != 0 {
		t.Errorf("%d <script> elements", n)
	}
	if !strings.Contains(textOf(doc), evil) {
		t.Errorf("the escaped name does not read back as text")
	}
}

// TestHTMLManyPhases checks a layout that can start at many phases, as a
// Go object aligned to 8 bytes can: the maps show phase 0 and two more,
// and say how many are left out.
func TestHTMLManyPhases(t *testing.T) {
	r := syntheticReport(t)
	s := &r.Layouts.Structs[len(r.Layouts.Structs)-1]
	var phases []int64
	for p := int64(0); p < 128; p += 8 {
		phases = append(phases, p)
	}
	s.Phases["128"] = phases
	out := renderHTML(t, r)
	checkHTML(t, out, r)
	doc := parse(t, out)
	sections := findAll(doc, element("section", "layout"))
	last := sections[len(sections)-1]
	if n := len(findAll(last, element("svg", "linemap"))); n != 1+maxPhases {
		t.Errorf("%d maps, want %d (one at 64 B, %d at 128 B)", n, 1+maxPhases, maxPhases)
	}
	if want := fmt.Sprintf("%d more are not drawn", len(phases)-maxPhases); !strings.Contains(textOf(last), want) {
		t.Errorf("the section does not say %q", want)
	}
}

// TestPlaced checks that a variable the symbol table places is shown
// with its address, its phase and what shares its first and last lines,
// in the HTML, the text and the Markdown, and that the JSON carries them.
func TestPlaced(t *testing.T) {
	r := syntheticReport(t)
	s := &r.Layouts.Structs[0]
	addr := layoutjson.Address(0xffffffff8333fe80)
	s.Address = &addr
	s.Neighbours = []layoutjson.Neighbour{{Name: "tick_nsec", Offset: s.Size, Size: 8}}
	out := renderHTML(t, r)
	checkHTML(t, out, r)
	section := findAll(parse(t, out), element("section", "layout"))[0]
	want := fmt.Sprintf("At 0xffffffff8333fe80 (the symbol table): phase 0 at 64 B; 0 at 128 B. On its first and last lines: tick_nsec +%d (8 bytes;", s.Size)
	if !strings.Contains(textOf(section), want) {
		t.Errorf("the layout's section does not say %q:\n%s", want, textOf(section))
	}
	var js bytes.Buffer
	if err := json.NewEncoder(&js).Encode(r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"address":"0xffffffff8333fe80"`) || !strings.Contains(js.String(), `"name":"tick_nsec"`) {
		t.Errorf("the JSON does not carry the address and the neighbour")
	}
	for name, write := range map[string]func(io.Writer, *report.Report) error{"text": Text, "Markdown": Markdown} {
		var b bytes.Buffer
		if err := write(&b, r); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(strings.Fields(b.String()), " "); !strings.Contains(got, want) {
			t.Errorf("the %s does not say %q", name, want)
		}
	}
}

// TestHTMLEmpty checks that a report with nothing in it still renders:
// a run interrupted before the host was read, or a hand-made file.
func TestHTMLEmpty(t *testing.T) {
	r := &report.Report{}
	out := renderHTML(t, r)
	checkHTML(t, out, r)
	if !strings.Contains(textOf(parse(t, out)), "No probe ran.") {
		t.Errorf("an empty report does not say that no probe ran")
	}
}

func parse(t *testing.T, page []byte) *html.Node {
	t.Helper()
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatalf("the page does not parse: %v", err)
	}
	return doc
}

func findAll(n *html.Node, match func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	for d := range n.Descendants() {
		if match(d) {
			out = append(out, d)
		}
	}
	return out
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasClass(n *html.Node, class string) bool {
	return n.Type == html.ElementNode && slices.Contains(strings.Fields(attr(n, "class")), class)
}

func element(name string, classes ...string) func(*html.Node) bool {
	return func(n *html.Node) bool {
		if n.Type != html.ElementNode || n.Data != name {
			return false
		}
		for _, c := range classes {
			if !hasClass(n, c) {
				return false
			}
		}
		return true
	}
}

func textOf(n *html.Node) string {
	var b strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			b.WriteString(d.Data)
		}
	}
	return b.String()
}

// checkHTML checks the page against the report it was made from: it
// parses, it fetches nothing, and every chart holds the report's data.
func checkHTML(t *testing.T, page []byte, r *report.Report) {
	t.Helper()
	doc := parse(t, page)

	// Self-contained.
	if n := len(findAll(doc, element("html"))); n != 1 {
		t.Errorf("%d <html> elements, want 1", n)
	}
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		switch n.Data {
		case "script":
			t.Errorf("<script> in the page (src=%q)", attr(n, "src"))
		case "link":
			t.Errorf("<link rel=%q href=%q> in the page", attr(n, "rel"), attr(n, "href"))
		case "iframe", "img", "object", "embed", "image", "use":
			if attr(n, "src") != "" || attr(n, "href") != "" {
				t.Errorf("<%s> loads %q", n.Data, attr(n, "src")+attr(n, "href"))
			}
		}
		for _, a := range n.Attr {
			if (a.Key == "src" || a.Key == "href") && !strings.HasPrefix(a.Val, "#") {
				t.Errorf("<%s %s=%q> points outside the page", n.Data, a.Key, a.Val)
			}
			checkURLs(t, fmt.Sprintf("<%s %s>", n.Data, a.Key), a.Val)
		}
		if n.Data == "style" {
			checkURLs(t, "<style>", textOf(n))
			if strings.Contains(textOf(n), "@import") {
				t.Errorf("<style> imports a stylesheet")
			}
		}
	}

	// Every chart has data points.
	charts := findAll(doc, element("svg", "chart"))
	for _, svg := range charts {
		marks := findAll(svg, func(n *html.Node) bool {
			return hasClass(n, "point") || hasClass(n, "bar") || hasClass(n, "segment")
		})
		if len(marks) == 0 {
			t.Errorf("chart %q has no data points", attr(svg, "aria-label"))
		}
	}

	// The verdict table: a row per verdict.
	if n := len(findAll(doc, element("tr", "verdict"))); n != len(r.Verdicts) {
		t.Errorf("%d verdict rows, want %d", n, len(r.Verdicts))
	}

	// The line maps: per layout, a map per line size and drawn phase,
	// with one segment per member and line.
	sections := findAll(doc, element("section", "layout"))
	if len(sections) != len(r.Layouts.Structs) {
		t.Fatalf("%d layout sections, want %d", len(sections), len(r.Layouts.Structs))
	}
	for i, s := range r.Layouts.Structs {
		maps := findAll(sections[i], element("svg", "linemap"))
		var want []string
		for _, l := range r.Lines {
			phases := s.Phases[strconv.FormatInt(l, 10)]
			if len(phases) > maxPhases {
				co := checkObject(r, i)
				phases = choosePhases(phases, co, l)
			}
			for _, ph := range phases {
				want = append(want, wantSegments(s, l, ph)...)
				want = append(want, "|")
			}
		}
		var got []string
		for _, m := range maps {
			for _, seg := range findAll(m, element("rect", "segment")) {
				got = append(got, attr(seg, "data-what"))
			}
			got = append(got, "|")
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: segments\n got %q\nwant %q", s.Name, got, want)
		}
		// Every path of the layout is in its legend, and colours a band.
		legend := findAll(sections[i], element("svg", "legend"))
		if len(legend) != 1 {
			t.Errorf("%s: %d legends, want 1", s.Name, len(legend))
			continue
		}
		bands := map[string]bool{}
		for _, b := range findAll(sections[i], element("rect", "band")) {
			bands[attr(b, "data-what")] = true
		}
		if co := checkObject(r, i); co != nil {
			for _, p := range co.Paths {
				if !strings.Contains(textOf(legend[0]), p.Name) {
					t.Errorf("%s: path %s missing from the legend", s.Name, p.Name)
				}
				if !bands[p.Name] {
					t.Errorf("%s: path %s colours no member", s.Name, p.Name)
				}
			}
		}
	}

	// The sweep: a writer and a reader point per distance, the knee.
	sweep := findAll(doc, element("svg", "sweep"))
	if r.Sweep == nil {
		if len(sweep) != 0 {
			t.Errorf("a sweep chart without a sweep")
		}
	} else {
		if len(sweep) != 1 {
			t.Fatalf("%d sweep charts, want 1", len(sweep))
		}
		for _, series := range []string{"writer", "reader"} {
			measured := 0 // distances with samples
			for _, p := range r.Sweep.Points {
				if st := map[string]report.Stat{"writer": p.Writer, "reader": p.Reader}[series]; st.N > 0 {
					measured++
				}
			}
			if n := len(findAll(sweep[0], element("circle", "point", series))); n != measured {
				t.Errorf("sweep: %d %s points, want %d", n, series, measured)
			}
			if n := len(findAll(sweep[0], element("line", "errorbar", series))); n != 3*measured {
				t.Errorf("sweep: %d %s error-bar strokes, want %d", n, series, 3*measured)
			}
		}
		knee := findAll(sweep[0], element("line", "knee"))
		if wantKnee := r.Sweep.Kind == probe.Found; (len(knee) == 1) != wantKnee {
			t.Errorf("sweep: %d knee lines for distance %d", len(knee), r.Sweep.Distance)
		}
		if r.Sweep.Kind == probe.Found && !strings.Contains(textOf(sweep[0]), fmt.Sprintf("interference distance %d B", r.Sweep.Distance)) {
			t.Errorf("sweep: the knee is not labelled")
		}
		for _, label := range []string{"writer ops/s", "reader ops/s", "distance"} {
			if !strings.Contains(textOf(sweep[0]), label) {
				t.Errorf("sweep: no axis label %q", label)
			}
		}
	}

	// The probes: a bar per case, or the reason it did not run.
	probes := findAll(doc, element("section", "probe"))
	if len(probes) != len(r.Probes) {
		t.Fatalf("%d probe sections, want %d", len(probes), len(r.Probes))
	}
	for i, p := range r.Probes {
		sec := probes[i]
		if !strings.Contains(textOf(sec), p.Title) || !strings.Contains(textOf(sec), p.Mode) {
			t.Errorf("probe %d: the section does not name %q, %s", i, p.Title, p.Mode)
		}
		bars := findAll(sec, element("rect", "bar"))
		if p.Skipped != "" {
			if len(bars) != 0 || !strings.Contains(textOf(sec), p.Skipped) {
				t.Errorf("probe %d (%s, skipped): %d bars, reason shown: %v", i, p.Title, len(bars), strings.Contains(textOf(sec), p.Skipped))
			}
			continue
		}
		if len(bars) != len(p.Cases) {
			t.Errorf("probe %d (%s, %s): %d bars, want %d", i, p.Title, p.Mode, len(bars), len(p.Cases))
			continue
		}
		// The bars are grouped by path: compare them as sets.
		var got, want []string
		for j, c := range p.Cases {
			with := "beside writers"
			if !c.Writers {
				with = "alone"
			}
			want = append(want, c.Variant+"|"+c.Path+"|"+with)
			got = append(got, attr(bars[j], "data-what"))
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("probe %d (%s, %s): bars\n got %q\nwant %q", i, p.Title, p.Mode, got, want)
		}
		if n := len(findAll(sec, element("tr"))); n != len(p.Comparisons)+1 && len(p.Comparisons) > 0 {
			t.Errorf("probe %d: %d comparison rows, want %d", i, n-1, len(p.Comparisons))
		}
	}
}

// checkURLs fails on any url(...) that does not name a fragment of the page.
func checkURLs(t *testing.T, where, s string) {
	t.Helper()
	for {
		i := strings.Index(s, "url(")
		if i < 0 {
			return
		}
		s = s[i+4:]
		if v := strings.TrimLeft(s, ` "'`); !strings.HasPrefix(v, "#") {
			t.Errorf("%s: url(%.40s points outside the page", where, s)
		}
	}
}

// wantSegments lists the members drawn on each line of a map, computed
// from the layout: a member that holds bytes once per line it crosses;
// members that overlap (unions, bit-fields) as one.
func wantSegments(s layoutjson.Struct, line, phase int64) []string {
	type run struct {
		off, end int64
		names    []string
	}
	var runs []run
	// The leaves by offset: a union of structs lists one struct's
	// members, then the other's, each from the union's start.
	leaves := slices.Clone(s.Fields)
	slices.SortStableFunc(leaves, func(a, b layoutjson.Field) int { return cmp.Compare(a.Offset, b.Offset) })
	for _, f := range leaves {
		if f.Kind == "struct" || f.Kind == "union" || f.Size == 0 {
			continue
		}
		if n := len(runs); n > 0 && f.Offset < runs[n-1].end {
			runs[n-1].end = max(runs[n-1].end, f.Offset+f.Size)
			runs[n-1].names = append(runs[n-1].names, f.Path)
			continue
		}
		runs = append(runs, run{f.Offset, f.Offset + f.Size, []string{f.Path}})
	}
	var out []string
	lines := min((phase+s.Size+line-1)/line, maxMapRow)
	for l := range lines {
		for _, r := range runs {
			if (r.off+phase)/line <= l && l <= (r.end-1+phase)/line {
				out = append(out, strings.Join(r.names, " "))
			}
		}
	}
	return out
}

// TestHTMLChromium renders the recorded report in headless Chromium and
// checks that the screenshot shows the page: run it with
//
//	go test ./internal/report -run Chromium -chromium
//
// (apt-get install chromium). With -update it also rewrites
// testdata/screenshot.png, the picture in the README.
func TestHTMLChromium(t *testing.T) {
	if !*chromium {
		t.Skip("needs Chromium: go test ./internal/report -run Chromium -chromium (Debian: apt-get install chromium)")
	}
	bin := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			bin = p
			break
		}
	}
	if bin == "" {
		t.Fatal("-chromium: no chromium in PATH (Debian: apt-get install chromium)")
	}
	dir := t.TempDir()
	page := renderHTML(t, recordedReport(t))
	chrome := func(width int, file string, args ...string) []byte {
		t.Helper()
		path := filepath.Join(dir, file)
		if err := os.WriteFile(path, page, 0o644); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		args = append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
			"--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
			"--user-data-dir=" + filepath.Join(dir, "profile"), fmt.Sprintf("--window-size=%d,2000", width)}, args...)
		cmd := exec.CommandContext(ctx, bin, append(args, "file://"+path)...)
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v\n%s", bin, err, out)
		}
		return out
	}
	for _, width := range []int{700, 1400} {
		shot := filepath.Join(dir, fmt.Sprintf("out%d.png", width))
		chrome(width, "report.html", "--screenshot="+shot)
		f, err := os.Open(shot)
		if err != nil {
			t.Fatalf("no screenshot: %v", err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("screenshot: %v", err)
		}
		differ, colors := screenshotStats(img)
		t.Logf("screenshot at %d px %v: %.1f%% of the pixels differ from the background, %d distinct colours", width, img.Bounds().Size(), 100*differ, colors)
		if differ < 0.08 {
			t.Errorf("at %d px the screenshot is nearly blank: %.1f%% of the pixels differ from the background", width, 100*differ)
		}
		if colors < 8 {
			t.Errorf("at %d px the screenshot shows %d distinct colours, want the paths' colours (at least 8)", width, colors)
		}
		if *goldenfile.Update && width == 1400 {
			data, err := os.ReadFile(shot)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join("testdata", "screenshot.png"), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Every table within the window, and the page no wider: a copy of
	// the page measures itself and leaves the answer in its DOM.
	page = bytes.Replace(page, []byte("</body>"), []byte(`<script>
const w = document.documentElement.clientWidth;
const wide = [...document.querySelectorAll("table")].filter(t => t.getBoundingClientRect().right > w + 1).map(t => t.className);
document.body.setAttribute("data-fit", document.documentElement.scrollWidth <= w + 1 && wide.length == 0 ? "yes" : "no: " + wide.join(" ") + " " + document.documentElement.scrollWidth + " > " + w);
</script></body>`), 1)
	for _, width := range []int{700, 1400} {
		dom := chrome(width, "measure.html", "--dump-dom", "--virtual-time-budget=2000")
		m := regexp.MustCompile(`data-fit="([^"]*)"`).FindSubmatch(dom)
		if m == nil || string(m[1]) != "yes" {
			t.Errorf("at %d px a table is wider than the window: %q", width, m)
		}
	}
}

// screenshotStats returns the share of pixels that differ from the
// background (the top-left pixel) and how many distinct colours, at 4 bits
// per channel, cover at least 200 pixels.
func screenshotStats(img image.Image) (float64, int) {
	b := img.Bounds()
	br, bg, bb, _ := img.At(b.Min.X, b.Min.Y).RGBA()
	counts := map[[3]uint32]int{}
	differ, total := 0, 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			total++
			if r != br || g != bg || bl != bb {
				differ++
			}
			counts[[3]uint32{r >> 12, g >> 12, bl >> 12}]++
		}
	}
	colors := 0
	for _, n := range counts {
		if n >= 200 {
			colors++
		}
	}
	return float64(differ) / float64(total), colors
}
