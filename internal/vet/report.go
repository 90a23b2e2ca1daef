package vet

import (
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf16"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/mglayout/mglayout/layout/falsesharing"
)

// writeText prints the findings as go vet does: file:line:col: message.
func WriteText(w io.Writer, findings []*Finding) error {
	for _, f := range findings {
		if _, err := fmt.Fprintf(w, "%s:%d:%d: %s\n", shortPath(f.pos.Filename), f.pos.Line, f.pos.Column, f.diag.Message); err != nil {
			return err
		}
	}
	return nil
}

// JSONFinding is one Finding of `mglayout vet -format json`, which prints an
// array of them sorted by position, [] when there are none. Lines and
// columns count from 1, columns in bytes; ends are exclusive.
type JSONFinding struct {
	Rule      string `json:"rule"` // the rule's ID: FS1 ... FS6
	Name      string `json:"name"` // the rule's name: shard-stride ...
	File      string `json:"file"` // as text prints it: relative to the working directory when below it
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line"`
	EndColumn int    `json:"end_column"`
	Message   string `json:"message"`
	URL       string `json:"url"` // the rule's section of the README
	// The finding as data, absent for a diagnostic that is none (a
	// malformed directive): the evidence tier (declared, proven or
	// likely), the object and members, the operations on each side, and
	// per GOARCH and line size the phases at which it holds.
	*falsesharing.Finding
	// Lines and GOARCHes are those of the holdings, each once.
	Lines    []int64   `json:"lines,omitempty"`
	GOARCHes []string  `json:"goarchs,omitempty"`
	Fixes    []JSONFix `json:"fixes"` // [] when there is none; -fix applies the first
}

type JSONFix struct {
	Message string     `json:"message"`
	Edits   []JSONEdit `json:"edits"`
}

// JSONEdit replaces the text from start to end with new_text; an
// insertion has start == end. Offsets are bytes from the file's start.
type JSONEdit struct {
	File        string `json:"file"`
	StartLine   int    `json:"start_line"`
	StartColumn int    `json:"start_column"`
	EndLine     int    `json:"end_line"`
	EndColumn   int    `json:"end_column"`
	StartOffset int    `json:"start_offset"`
	EndOffset   int    `json:"end_offset"`
	NewText     string `json:"new_text"`
}

func WriteJSON(w io.Writer, findings []*Finding) error {
	doc := []JSONFinding{}
	for _, f := range findings {
		j := JSONFinding{
			Rule: f.ruleID(), File: shortPath(f.pos.Filename),
			Line: f.pos.Line, Column: f.pos.Column, EndLine: f.end.Line, EndColumn: f.end.Column,
			Message: f.diag.Message, URL: f.diag.URL, Finding: f.data, Fixes: []JSONFix{},
		}
		if f.data != nil {
			j.Lines, j.GOARCHes = f.data.Lines(), f.data.GOARCHes()
		}
		if f.rule != nil {
			j.Name = f.rule.Name
		}
		for _, fix := range f.diag.SuggestedFixes {
			jf := JSONFix{Message: fix.Message, Edits: []JSONEdit{}}
			for _, e := range fix.TextEdits {
				start, end := editRange(f.pkg.Fset, e)
				jf.Edits = append(jf.Edits, JSONEdit{
					File:      shortPath(start.Filename),
					StartLine: start.Line, StartColumn: start.Column, EndLine: end.Line, EndColumn: end.Column,
					StartOffset: start.Offset, EndOffset: end.Offset, NewText: string(e.NewText),
				})
			}
			j.Fixes = append(j.Fixes, jf)
		}
		doc = append(doc, j)
	}
	return encodeJSON(w, doc)
}

// editRange returns where an edit starts and ends; an insertion may leave
// its end unset.
func editRange(fset *token.FileSet, e analysis.TextEdit) (start, end token.Position) {
	start = fset.Position(e.Pos)
	end = start
	if e.End.IsValid() {
		end = fset.Position(e.End)
	}
	return start, end
}

func encodeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// The SARIF 2.1.0 log of `mglayout vet -format sarif`: what GitHub code
// scanning reads (https://docs.github.com/en/code-security/code-scanning/
// integrating-with-code-scanning/sarif-support-for-code-scanning).
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool       sarifTool     `json:"tool"`
	ColumnKind string        `json:"columnKind"`
	Results    []sarifResult `json:"results"` // present when empty: a run that found nothing
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string        `json:"id"`
	Name                 string        `json:"name"`
	ShortDescription     sarifMessage  `json:"shortDescription"`
	FullDescription      sarifMessage  `json:"fullDescription"`
	HelpURI              string        `json:"helpUri"`
	Help                 sarifMessage  `json:"help"`
	DefaultConfiguration sarifRuleConf `json:"defaultConfiguration"`
}

type sarifRuleConf struct {
	Level string `json:"level"`
}

type sarifMessage struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex *int            `json:"ruleIndex,omitempty"` // into the driver's rules; none for a diagnostic of no rule
	Level     string          `json:"level"`
	Message   sarifMessage    `json:"message"`
	Locations []sarifLocation `json:"locations"`
	Fixes     []sarifFix      `json:"fixes,omitempty"`
	// Rank orders results by how strong their evidence is: 100 declared,
	// 90 proven, 50 likely; or, for a finding mglayout confirm measured,
	// by the measured effect (Measured.Rank).
	Rank       float64          `json:"rank"`
	Properties *sarifProperties `json:"properties,omitempty"`
}

// sarifProperties is the finding as data, as -json has it.
type sarifProperties struct {
	*falsesharing.Finding
	Lines    []int64   `json:"lines"`
	GOARCHes []string  `json:"goarchs"`
	Measured *Measured `json:"measured,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           sarifRegion           `json:"region"`
}

type sarifArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

// sarifRegion counts lines and columns from 1, columns in UTF-16 code
// units (the run's columnKind); the end column is exclusive.
type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

type sarifFix struct {
	Description     sarifMessage          `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Replacements     []sarifReplacement    `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifRegion       `json:"deletedRegion"`
	InsertedContent sarifInsertedText `json:"insertedContent"`
}

type sarifInsertedText struct {
	Text string `json:"text"`
}

// SrcRoot is the uriBaseId of the files: the root of the repository that
// code scanning checked out.
const SrcRoot = "%SRCROOT%"

func WriteSARIF(w io.Writer, findings []*Finding) error { return WriteMeasuredSARIF(w, findings, nil) }

// Measured is what mglayout confirm measured of a finding, for SARIF.
type Measured struct {
	Result string  `json:"result"` // "measured" or "not confirmed"
	Delta  float64 `json:"delta"`  // the reader's change with the fix, as a fraction
	P      float64 `json:"p"`      // corrected over the run's findings
	MDE    float64 `json:"mde"`    // the smallest change the run could have seen (-1: none)
}

// Rank is a measured finding's SARIF rank: the share of the reader's
// time the fix saves, 100·Δ/(1+Δ) (a doubling is 50, a tripling 67); 0
// for one not confirmed.
func (m Measured) Rank() float64 {
	if m.Result != "measured" || m.Delta <= 0 {
		return 0
	}
	return math.Round(100 * m.Delta / (1 + m.Delta))
}

// WriteMeasuredSARIF writes the findings as WriteSARIF does, those
// measured ranked by their measured effect (Measured.Rank) and carrying
// the measurement among their properties.
func WriteMeasuredSARIF(w io.Writer, findings []*Finding, measured map[*Finding]Measured) error {
	driver := sarifDriver{Name: "mglayout", InformationURI: falsesharing.Home}
	index := map[*falsesharing.Rule]int{}
	for i, r := range falsesharing.Rules {
		index[r] = i
		driver.Rules = append(driver.Rules, sarifRule{
			ID: r.ID, Name: r.Name,
			ShortDescription: sarifMessage{Text: r.Summary},
			FullDescription:  sarifMessage{Text: r.Doc},
			HelpURI:          r.URL(),
			Help: sarifMessage{
				Text:     r.Doc + "\n\nReported:\n\n" + r.Bad + "\n\nFixed:\n\n" + r.Good,
				Markdown: r.Doc + "\n\nReported:\n\n```go\n" + r.Bad + "\n```\n\nFixed:\n\n```go\n" + r.Good + "\n```\n\nSee [" + r.ID + " " + r.Name + "](" + r.URL() + ").",
			},
			DefaultConfiguration: sarifRuleConf{Level: "warning"},
		})
	}
	loc := &sarifLocator{src: map[string][]byte{}, roots: map[string]string{}}
	results := []sarifResult{}
	for _, f := range findings {
		tier := f.tier()
		res := sarifResult{
			RuleID:  f.ruleID(),
			Level:   sarifLevel(tier),
			Rank:    sarifRank[tier],
			Message: sarifMessage{Text: f.diag.Message},
			Locations: []sarifLocation{{PhysicalLocation: sarifPhysicalLocation{
				ArtifactLocation: loc.artifact(f.pkg, f.pos.Filename),
				Region:           loc.region(f.pos, f.end),
			}}},
		}
		if res.RuleID == "" {
			res.RuleID = falsesharing.Analyzer.Name
		}
		if f.data != nil {
			res.Properties = &sarifProperties{Finding: f.data, Lines: f.data.Lines(), GOARCHes: f.data.GOARCHes()}
		}
		if m, ok := measured[f]; ok {
			res.Rank = m.Rank()
			if res.Properties != nil {
				res.Properties.Measured = &m
			}
		}
		if i, ok := index[f.rule]; ok {
			res.RuleIndex = &i
		}
		for _, fix := range f.diag.SuggestedFixes {
			sf := sarifFix{Description: sarifMessage{Text: fix.Message}}
			for _, e := range fix.TextEdits {
				start, end := editRange(f.pkg.Fset, e)
				// SARIF groups the replacements by file, in order.
				file := loc.artifact(f.pkg, start.Filename)
				if n := len(sf.ArtifactChanges); n == 0 || sf.ArtifactChanges[n-1].ArtifactLocation != file {
					sf.ArtifactChanges = append(sf.ArtifactChanges, sarifArtifactChange{ArtifactLocation: file})
				}
				c := &sf.ArtifactChanges[len(sf.ArtifactChanges)-1]
				c.Replacements = append(c.Replacements, sarifReplacement{
					DeletedRegion:   loc.region(start, end),
					InsertedContent: sarifInsertedText{Text: string(e.NewText)},
				})
			}
			res.Fixes = append(res.Fixes, sf)
		}
		results = append(results, res)
	}
	return encodeJSON(w, sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs: []sarifRun{{
			Tool:       sarifTool{Driver: driver},
			ColumnKind: "utf16CodeUnits",
			Results:    results,
		}},
	})
}

// sarifLocator turns positions into SARIF's terms, reading each file once.
type sarifLocator struct {
	src   map[string][]byte // file contents, nil when unreadable
	roots map[string]string // the repository root of each module directory
}

// artifact names a file by its path from the root of the repository that
// holds the package's module: the nearest directory above the module with
// a .git, or the module's own directory. A file outside it (GOROOT's) gets
// an absolute file URI.
func (l *sarifLocator) artifact(pkg *packages.Package, name string) sarifArtifactLocation {
	base := "."
	if pkg.Module != nil && pkg.Module.Dir != "" {
		base = pkg.Module.Dir
	}
	root, ok := l.roots[base]
	if !ok {
		root = repoRoot(base)
		l.roots[base] = root
	}
	if rel, err := filepath.Rel(root, name); err == nil && filepath.IsLocal(rel) {
		return sarifArtifactLocation{URI: (&url.URL{Path: filepath.ToSlash(rel)}).String(), URIBaseID: SrcRoot}
	}
	return sarifArtifactLocation{URI: (&url.URL{Scheme: "file", Path: filepath.ToSlash(name)}).String()}
}

// repoRoot returns the nearest directory at or above dir that holds a .git
// (a directory, or a file in a worktree), or dir itself.
func repoRoot(dir string) string {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

func (l *sarifLocator) region(start, end token.Position) sarifRegion {
	return sarifRegion{StartLine: start.Line, StartColumn: l.column(start), EndLine: end.Line, EndColumn: l.column(end)}
}

// column converts a position's byte column to UTF-16 code units, which
// differ when the line has non-ASCII text before it; a file that cannot
// be read keeps the byte column.
func (l *sarifLocator) column(p token.Position) int {
	src, ok := l.src[p.Filename]
	if !ok {
		src, _ = os.ReadFile(p.Filename)
		l.src[p.Filename] = src
	}
	lineStart := p.Offset - (p.Column - 1)
	if lineStart < 0 || p.Offset > len(src) || strings.ContainsRune(string(src[lineStart:p.Offset]), '\n') {
		return p.Column
	}
	return len(utf16.Encode([]rune(string(src[lineStart:p.Offset])))) + 1
}

// sarifRank turns an evidence tier into SARIF's rank, 0 to 100.
var sarifRank = map[string]float64{"declared": 100, "proven": 90, "likely": 50}

// sarifLevel is a warning, or a note for a Finding only a heuristic
// supports.
func sarifLevel(tier string) string {
	if tier == "likely" {
		return "note"
	}
	return "warning"
}
