package falsesharing_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The unseen panel (testdata/unseen) is 27 real modules at pinned
// versions that no one had read while the analyzer was written, split
// at random by category into a development half and a held-out half
// (modules.tsv). Before the analyzer ran on them, reviewers who had not
// read it listed each module's defects and correct structs
// (expected/*.tsv); other reviewers judged every finding (judged.tsv).
// It downloads the modules, so it runs only when asked:
//
//	go test ./layout/falsesharing -run TestUnseen -unseen -v -timeout 30m
var (
	unseenFlag = flag.Bool("unseen", false, "check the unseen panel of real modules in testdata/unseen (downloads them; see TestUnseen)")
	unseenOut  = flag.String("unseen.out", "", "with -unseen, write the findings no one has judged to this file, for the judges")
	heldout    = flag.Bool("heldout", false, "with -unseen, score the held-out half too (a scoring run, not one to tune by)")
)

const unseenDir = "testdata/unseen"

// goarchLine is the GOARCH the panel is checked on for a line size:
// amd64 for 64-byte lines, arm64 for 128-byte lines.
var goarchLine = map[string]string{"64": "amd64", "128": "arm64"}

// unseenModule is one row of modules.tsv.
type unseenModule struct {
	path, version, category, half string
	packages                      []string
}

func readModules(t *testing.T) []unseenModule {
	t.Helper()
	var out []unseenModule
	for i, cols := range readTSV(t, filepath.Join(unseenDir, "modules.tsv")) {
		if i == 0 {
			continue
		}
		if len(cols) != 5 || cols[3] != "dev" && cols[3] != "heldout" {
			t.Fatalf("modules.tsv: row %d: want module, version, category, half (dev or heldout), packages", i+1)
		}
		out = append(out, unseenModule{cols[0], cols[1], cols[2], cols[3], strings.Fields(cols[4])})
	}
	return out
}

// expectation is one row of expected/*.tsv: a defect to flag, or a
// struct that must stay quiet, at some line sizes.
type expectation struct {
	module, file string
	start, end   int
	flag         bool
	goarchs      []string
	name, why    string
}

func readExpected(t *testing.T, mods []unseenModule) []expectation {
	t.Helper()
	var out []expectation
	for _, m := range mods {
		name := filepath.Join(unseenDir, "expected", strings.ReplaceAll(m.path, "/", "_")+".tsv")
		for i, cols := range readTSV(t, name) {
			if i == 0 {
				continue
			}
			start, err1 := strconv.Atoi(cols[1])
			end, err2 := strconv.Atoi(cols[2])
			if len(cols) != 7 || err1 != nil || err2 != nil || cols[3] != "flag" && cols[3] != "quiet" {
				t.Fatalf("%s: row %d: want file, start, end, expect (flag or quiet), lines, struct, why", name, i+1)
			}
			e := expectation{module: m.path, file: cols[0], start: start, end: end, flag: cols[3] == "flag", name: cols[5], why: cols[6]}
			for _, l := range strings.Split(cols[4], ",") {
				g, ok := goarchLine[strings.TrimSpace(l)]
				if !ok {
					t.Fatalf("%s: row %d: line size %q, want 64 or 128", name, i+1, l)
				}
				e.goarchs = append(e.goarchs, g)
			}
			out = append(out, e)
		}
	}
	return out
}

// covers reports whether a finding lies in an expectation's lines, on a
// GOARCH it is for.
func (e expectation) covers(f panelFinding, goarch string) bool {
	return f.goarch == goarch && f.file == e.file && e.start <= f.line && f.line <= e.end
}

// halfScore is what TestUnseen measures of one half.
type halfScore struct {
	findings, trueN, debatable, falseN, unjudged int
	flags, flagsFound                            int // must-flag items: a row at a line size
	quietBroken                                  int // findings in a must-stay-quiet range
	details                                      []string
}

func (h halfScore) String() string {
	n := h.trueN + h.debatable + h.falseN
	return fmt.Sprintf("%d findings: %d true, %d debatable, %d false, %d not judged; true or debatable %s, true %s; must-flag recall %s (%d of %d); %d findings in must-stay-quiet structs",
		h.findings, h.trueN, h.debatable, h.falseN, h.unjudged, share(h.trueN+h.debatable, n), share(h.trueN, n), share(h.flagsFound, h.flags), h.flagsFound, h.flags, h.quietBroken)
}

func share(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", float64(a)/float64(b))
}

// TestUnseen checks the unseen panel for amd64 (64-byte lines) and
// arm64 (128-byte lines) and scores each half against the reviewers:
// the share of findings judged true or debatable and true, the recall
// of the defects they listed, and the findings inside structs they
// found correct. The development half is printed case by case; the
// held-out half is scored only with -heldout, and only as figures,
// unless -heldout-detail. Findings no one has judged fail the test
// (-unseen.out writes them for judging).
func TestUnseen(t *testing.T) {
	if !*unseenFlag {
		t.Skip("the unseen panel downloads real modules; run it with: go test ./layout/falsesharing -run TestUnseen -unseen -v -timeout 30m")
	}
	downloadPanel(t, unseenDir)
	mods := readModules(t)
	expected := readExpected(t, mods)
	judged := readJudged(t, unseenDir)
	var paths []string
	for _, m := range mods {
		paths = append(paths, m.packages...)
	}
	moduleOf := func(file string) *unseenModule {
		var best *unseenModule
		for i, m := range mods {
			if strings.HasPrefix(file, m.path+"/") && (best == nil || len(m.path) > len(best.path)) {
				best = &mods[i]
			}
		}
		return best
	}

	var all []panelFinding
	for _, goarch := range panelArches {
		found := analyzePanel(t, goarch, loadPanel(t, unseenDir, goarch, paths))
		t.Logf("GOARCH=%s: %d findings", goarch, len(found))
		all = append(all, found...)
	}

	scores := map[string]*halfScore{"dev": {}, "heldout": {}}
	var toJudge []string
	seen := map[string]bool{}
	for _, f := range all {
		m := moduleOf(f.file)
		if m == nil {
			t.Errorf("%s: a finding outside the panel's modules", f.file)
			continue
		}
		h := scores[m.half]
		h.findings++
		k := f.key()
		seen[k] = true
		j, ok := judged[k]
		switch {
		case !ok:
			h.unjudged++
			toJudge = append(toJudge, k+"\t"+m.half+"\t"+oneLine(f.msg))
		case j.verdict == "true":
			h.trueN++
		case j.verdict == "debatable":
			h.debatable++
		default:
			h.falseN++
		}
		if m.half == "dev" || *heldoutDetail {
			verdict := "not judged"
			if ok {
				verdict = j.verdict + ": " + j.reason
			}
			h.details = append(h.details, fmt.Sprintf("finding %s:%d [%s %s] %s\n\t%s", f.file, f.line, f.goarch, f.rule, oneLine(f.msg), verdict))
		}
	}
	for _, e := range expected {
		m := moduleOf(e.file)
		h := scores[m.half]
		for _, goarch := range e.goarchs {
			hit := slices.ContainsFunc(all, func(f panelFinding) bool { return e.covers(f, goarch) })
			var note string
			switch {
			case e.flag:
				h.flags++
				if hit {
					h.flagsFound++
				} else {
					note = fmt.Sprintf("missed %s:%d-%d %s (%s): %s", e.file, e.start, e.end, e.name, goarch, e.why)
				}
			case hit:
				for _, f := range all {
					if e.covers(f, goarch) {
						h.quietBroken++
						note = fmt.Sprintf("must stay quiet: %s %s:%d [%s %s] %s", e.name, f.file, f.line, f.goarch, f.rule, oneLine(f.msg))
					}
				}
			}
			if note != "" && (m.half == "dev" || *heldoutDetail) {
				h.details = append(h.details, note)
			}
		}
	}
	var stale []string
	for k := range judged {
		if m := moduleOf(strings.Split(k, "\t")[1]); !seen[k] && m != nil {
			if m.half == "heldout" && !*heldoutDetail {
				k = "(a finding of the held-out half)"
			}
			stale = append(stale, k)
		}
	}
	halves := []string{"dev"}
	if *heldout {
		halves = append(halves, "heldout")
	}
	for _, half := range halves {
		h := scores[half]
		slices.Sort(h.details)
		for _, d := range h.details {
			t.Log(d)
		}
		t.Logf("%s half: %s", half, h)
	}
	if *unseenOut != "" {
		slices.Sort(toJudge)
		text := "goarch\tfile\tline\trule\thalf\tmessage\n" + strings.Join(toJudge, "\n") + "\n"
		if err := os.WriteFile(*unseenOut, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	if len(toJudge) > 0 {
		t.Errorf("%d findings have no judgement in %s/judged.tsv (-unseen.out FILE writes them)", len(toJudge), unseenDir)
	}
	if len(stale) > 0 {
		slices.Sort(stale)
		t.Errorf("%d judgements in %s/judged.tsv match no finding:\n%s", len(stale), unseenDir, strings.Join(stale, "\n"))
	}
}
