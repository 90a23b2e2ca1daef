package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mglayout/mglayout/probe"
)

// readmeExample is one "$ mglayout ..." example of the README: the
// command and the lines it is shown to print.
type readmeExample struct {
	line  int // of the command in README.md
	args  []string
	shown []string
}

// readmeExamples returns the README's examples outside the section on
// -elf, whose commands compile C first (TestReadmeELF runs those).
func readmeExamples(t *testing.T) []readmeExample {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var out []readmeExample
	inELF, inBlock := false, false
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, "#### C structs and Go binaries from DWARF"):
			inELF = true
		case strings.HasPrefix(l, "### Access paths"):
			inELF = false
		case strings.HasPrefix(l, "```"):
			inBlock = !inBlock
		case inBlock && !inELF && strings.HasPrefix(l, "$ mglayout "):
			ex := readmeExample{line: i + 1, args: strings.Fields(strings.TrimPrefix(l, "$ mglayout "))}
			for i+1 < len(lines) && !strings.HasPrefix(lines[i+1], "```") && !strings.HasPrefix(lines[i+1], "$ ") {
				i++
				ex.shown = append(ex.shown, lines[i])
			}
			out = append(out, ex)
		}
	}
	return out
}

// measured are the commands whose figures are this host's: their output
// is compared in shape, numbers aside, and they run briefly.
var measured = map[string][]string{
	"cpu":    nil,
	"sweep":  {"-count", "2", "-duration", "20ms"},
	"probe":  {"-count", "2", "-duration", "20ms"},
	"report": {"-budget", "10s"},
}

// TestReadmeExamples runs every "$ mglayout" example of the README and
// checks that the command prints what the README shows: line for line,
// where "..." marks lines left out. The packages the examples check are
// in testdata/readme. Measured commands run briefly and are compared in
// shape, every number masked, since their figures are this host's.
func TestReadmeExamples(t *testing.T) {
	examples := readmeExamples(t)
	if len(examples) < 10 {
		t.Fatalf("found %d examples in the README, want 10 or more", len(examples))
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range examples {
		name := strings.Join(ex.args, " ")
		t.Run(name, func(t *testing.T) {
			args := append([]string(nil), ex.args...)
			extra, isMeasured := measured[args[0]]
			for i, a := range args {
				// A recorded report renders the same anywhere: the
				// example is checked whole, its file named from the
				// repository's root.
				if a == "-from" && i+1 < len(args) {
					isMeasured = false
					args[i+1] = filepath.Join(wd, "..", "..", args[i+1])
				}
			}
			if isMeasured {
				if _, err := probe.UsableCPUs(nil); args[0] != "cpu" && errors.Is(err, probe.ErrTooFewCPUs) {
					t.Skip("fewer than 2 CPUs usable: the probe cannot run")
				}
				if testing.Short() && args[0] != "cpu" {
					t.Skip("a measurement; -short leaves it out")
				}
				args = append(args, extra...)
			}
			for i, a := range args {
				if args[0] == "report" && a == "-o" && i+1 < len(args) {
					args[i+1] = filepath.Join(t.TempDir(), args[i+1])
				}
			}
			dir := filepath.Join(wd, "testdata", "readme")
			if err := os.Chdir(dir); err != nil {
				t.Fatal(err)
			}
			defer os.Chdir(wd)
			var stdout, stderr bytes.Buffer
			run(args, &stdout, &stderr)
			got := strings.Split(strings.TrimRight(stdout.String()+stderr.String(), "\n"), "\n")
			shown := ex.shown
			switch {
			case args[0] == "cpu":
				// The machine's name and figures aside, the same
				// table and facts.
				got, shown = maskNumbers(got[min(1, len(got)):]), maskNumbers(shown[min(1, len(shown)):])
			case isMeasured:
				// Only the line a measurement always prints: the
				// first, which says how it was run.
				got, shown = maskNumbers(got[:min(1, len(got))]), maskNumbers(shown[:min(1, len(shown))])
			}
			if args[0] == "report" {
				got = maskPaths(got)
				shown = maskPaths(shown)
			}
			if msg := matchShown(shown, got); msg != "" {
				t.Errorf("README.md:%d: %s\nthe command printed:\n%s", ex.line, msg, strings.Join(got, "\n"))
			}
		})
	}
}

// matchShown checks that the lines shown appear in the lines printed, in
// order and consecutively, but for "..." lines, which stand for lines
// left out (at the start, in the middle or at the end).
func matchShown(shown, got []string) string {
	pos := 0
	skipping := false
	for _, s := range shown {
		if s == "..." {
			skipping = true
			continue
		}
		if skipping {
			found := false
			for ; pos < len(got); pos++ {
				if got[pos] == s {
					found = true
					break
				}
			}
			if !found {
				return "the README shows " + quote(s) + ", which the command does not print after the lines before it"
			}
			skipping = false
		} else if pos >= len(got) || got[pos] != s {
			g := "(nothing)"
			if pos < len(got) {
				g = quote(got[pos])
			}
			return "the README shows " + quote(s) + " where the command prints " + g
		}
		pos++
	}
	if !skipping && pos < len(got) {
		return "the command prints more than the README shows, from " + quote(got[pos]) + " (end the example with ... if that is meant)"
	}
	return ""
}

func quote(s string) string { return "\"" + s + "\"" }

// number is a figure, with the unit letter of a size (48K, 2M).
var number = regexp.MustCompile(`[0-9]+(\.[0-9]+)?[KMG]?`)

// maskNumbers replaces every figure by N and, since the widths of the
// columns follow the figures, every run of spaces by one.
func maskNumbers(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.Join(strings.Fields(number.ReplaceAllString(l, "N")), " ")
	}
	return out
}

var reportPath = regexp.MustCompile(`wrote \S+/report\.txt`)

func maskPaths(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = reportPath.ReplaceAllString(l, "wrote DIR/report.txt")
	}
	return out
}
