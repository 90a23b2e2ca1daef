package golangci_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	_ "github.com/mglayout/mglayout/internal/golden" // -update, which go test ./... -update gives every package
)

// golangciVersion is the golangci-lint that TestGolangciLint builds the
// plugin into.
const golangciVersion = "v2.15.0"

var golangciFlag = flag.Bool("golangci", false, "build golangci-lint "+golangciVersion+" with the plugin and check its findings against mglayout vet's (downloads golangci-lint and its dependencies)")

// TestGolangciLint builds a golangci-lint binary with the plugin, runs it
// on a package with a finding of every rule, and checks that it reports
// what mglayout vet reports there, at the same places. It builds the
// binary as golangci-lint custom does, but from the module proxy: custom
// clones golangci-lint's repository, which a machine behind a proxy
// cannot reach.
//
//	go test ./layout/falsesharing/golangci -run TestGolangciLint -golangci -v -timeout 30m
func TestGolangciLint(t *testing.T) {
	if !*golangciFlag {
		t.Skip("downloads and builds golangci-lint " + golangciVersion + " with the plugin, minutes: go test -run TestGolangciLint -golangci -v -timeout 30m")
	}
	root := goCmd(t, "", "list", "-m", "-f", "{{.Dir}}")
	bin := t.TempDir()
	gcl := buildGolangciLint(t, root, filepath.Join(bin, "custom-gcl"))
	mglayout := filepath.Join(bin, "mglayout")
	goCmd(t, "", "build", "-o", mglayout, "github.com/mglayout/mglayout/cmd/mglayout")

	pkg, err := filepath.Abs(filepath.Join("..", "testdata", "src", "shapes"))
	if err != nil {
		t.Fatal(err)
	}
	// One GOARCH, the one being built: with several, mglayout vet builds
	// the package once for each, where golangci-lint, like go vet, checks
	// them all on its one build, and where a build-tagged constant sizes a
	// pad the two may rightly differ.
	arch := runtime.GOARCH
	config := filepath.Join(bin, ".golangci.yml")
	if err := os.WriteFile(config, fmt.Appendf(nil, golangciConfig, arch), 0o644); err != nil {
		t.Fatal(err)
	}
	got := golangciFindings(t, gcl, config, pkg)
	want := vetFindings(t, mglayout, pkg, "-falsesharing.arch="+arch, "-falsesharing.lines=64,128")
	if len(want) == 0 {
		t.Fatalf("mglayout vet found nothing in %s: nothing to compare", pkg)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("golangci-lint reports:\n%s\nmglayout vet reports:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	t.Logf("golangci-lint and mglayout vet report the same %d findings:\n%s", len(got), strings.Join(got, "\n"))
}

// golangciConfig enables the plugin alone, with the settings that
// TestGolangciLint passes to mglayout vet as flags (%s is the GOARCH), and
// has golangci-lint report every issue, where by default it keeps one a
// line and three of a text.
const golangciConfig = `version: "2"
run:
  tests: false # as mglayout vet without -test
linters:
  default: none
  enable: [falsesharing]
  settings:
    custom:
      falsesharing:
        type: module
        settings:
          arch: [%s]
          lines: [64, 128]
issues:
  max-issues-per-linter: 0
  max-same-issues: 0
  uniq-by-line: false
output:
  formats:
    json:
      path: stdout
  path-mode: abs
  show-stats: false
`

// buildGolangciLint builds golangci-lint with the plugin into out, from a
// module of its own whose main is golangci-lint's, with the plugin
// imported beside it (golangci-lint custom writes the import into
// cmd/golangci-lint/plugins.go of its clone) and this checkout in place of
// the released mglayout.
func buildGolangciLint(t *testing.T, root, out string) string {
	t.Helper()
	dir := t.TempDir()
	goCmd(t, dir, "mod", "init", "custom-gcl")
	goCmd(t, dir, "mod", "edit", "-require=github.com/mglayout/mglayout@v0.0.0", "-replace=github.com/mglayout/mglayout="+root)
	goCmd(t, dir, "get", "github.com/golangci/golangci-lint/v2@"+golangciVersion)
	src := goCmd(t, dir, "list", "-m", "-f", "{{.Dir}}", "github.com/golangci/golangci-lint/v2")
	main, err := os.ReadFile(filepath.Join(src, "cmd", "golangci-lint", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	plugins := "package main\n\nimport _ \"github.com/mglayout/mglayout/layout/falsesharing/golangci\"\n"
	if err := os.WriteFile(filepath.Join(dir, "main.go"), main, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "plugins.go"), []byte(plugins), 0o644); err != nil {
		t.Fatal(err)
	}
	goCmd(t, dir, "mod", "tidy")
	goCmd(t, dir, "build", "-o", out, ".")
	return out
}

// golangciFindings runs golangci-lint with config in dir and returns its
// issues as findings.
func golangciFindings(t *testing.T, gcl, config, dir string) []string {
	t.Helper()
	// A cache of its own, so that the analyzer runs rather than a cached
	// result of an earlier build being read back.
	stdout := runLinter(t, dir, []string{"GOLANGCI_LINT_CACHE=" + t.TempDir()}, gcl, "run", "--config", config, ".")
	var report struct {
		Issues []struct {
			FromLinter string
			Text       string
			Pos        struct {
				Filename     string
				Line, Column int
			}
		}
	}
	if err := json.Unmarshal(stdout, &report); err != nil {
		t.Fatalf("golangci-lint's JSON: %v\n%s", err, stdout)
	}
	var findings []string
	for _, i := range report.Issues {
		// An issue of golangci-lint's own, typecheck, shows as one that
		// mglayout vet does not report.
		text := i.Text
		if i.FromLinter != "falsesharing" {
			text += " (" + i.FromLinter + ")"
		}
		findings = append(findings, finding(i.Pos.Filename, i.Pos.Line, i.Pos.Column, text))
	}
	slices.Sort(findings)
	return findings
}

// vetFindings runs mglayout vet -format json with flags in dir and
// returns its findings.
func vetFindings(t *testing.T, mglayout, dir string, flags ...string) []string {
	t.Helper()
	stdout := runLinter(t, dir, nil, mglayout, append(append([]string{"vet", "-format", "json"}, flags...), ".")...)
	var report []struct {
		File         string
		Line, Column int
		Message      string
	}
	if err := json.Unmarshal(stdout, &report); err != nil {
		t.Fatalf("mglayout vet's JSON: %v\n%s", err, stdout)
	}
	var findings []string
	for _, f := range report {
		findings = append(findings, finding(filepath.Join(dir, f.File), f.Line, f.Column, f.Message))
	}
	slices.Sort(findings)
	return findings
}

func finding(file string, line, col int, message string) string {
	return fmt.Sprintf("%s:%d:%d: %s", file, line, col, message)
}

// runLinter runs a linter in dir, with env added to the test's, and
// returns its standard output. Exit status 1 is a linter's for findings,
// not a failure.
func runLinter(t *testing.T, dir string, env []string, name string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) && ee.ExitCode() == 1 {
		err = nil
	}
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, stderr.Bytes())
	}
	return stdout
}

// goCmd runs the go command in dir ("" for the test's own) and returns its
// trimmed standard output.
func goCmd(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	// Outside any workspace the caller may be in, which would take the
	// place of the golangci-lint module's replace directive.
	cmd.Env = append(os.Environ(), "GOWORK=off")
	out, err := cmd.Output()
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, ee.Stderr)
	} else if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}
