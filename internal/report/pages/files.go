package pages

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/mglayout/mglayout/internal/report"
)

// Writers write a report in each of its formats: text, md, json, html.
var Writers = map[string]func(io.Writer, *report.Report) error{
	"text": Text,
	"md":   Markdown,
	"json": func(w io.Writer, r *report.Report) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	},
	"html": HTML,
}

// WriteFiles writes the report's four files into dir: report.txt,
// report.md, report.json and report.html, each whole or not at all.
func WriteFiles(dir string, r *report.Report) error {
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
