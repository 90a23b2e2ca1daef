package report

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/mglayout/mglayout/layout/sharing"
	"github.com/mglayout/mglayout/probe"
)

// VariantsScenario is the scenario of layouts named on a command line:
// each variant probed against the others, and the first one's layout
// diffed against each other single-object variant.
func VariantsScenario(variants []probe.Variant) Scenario {
	var sc Scenario
	var names []string
	for _, v := range variants {
		sc.Objects = append(sc.Objects, v.Objects...)
		names = append(names, v.Name)
	}
	for _, v := range variants[1:] {
		if len(variants[0].Objects) == 1 && len(v.Objects) == 1 {
			sc.Diffs = append(sc.Diffs, [2]*sharing.Object{variants[0].Objects[0], v.Objects[0]})
		}
	}
	sc.Probes = []ProbeSpec{{Title: strings.Join(names, " vs "), Variants: variants}}
	return sc
}

// Writers write a report in each of its formats: text, md, json, html.
var Writers = map[string]func(io.Writer, *Report) error{
	"text": Text,
	"md":   Markdown,
	"json": func(w io.Writer, r *Report) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	},
	"html": HTML,
}

// WriteFiles writes the report's four files into dir: report.txt,
// report.md, report.json and report.html, each whole or not at all.
func WriteFiles(dir string, r *Report) error {
	for _, file := range []struct{ name, format string }{
		{"report.txt", "text"}, {"report.md", "md"}, {"report.json", "json"}, {"report.html", "html"},
	} {
		path := filepath.Join(dir, file.name)
		tmp := path + ".tmp"
		if err := writeFile(tmp, func(w io.Writer) error { return Writers[file.format](w, r) }); err != nil {
			return err
		}
		if err := os.Rename(tmp, path); err != nil {
			return err
		}
	}
	return nil
}

func writeFile(name string, write func(io.Writer) error) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %v", name, err)
	}
	return f.Close()
}
