package pages

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/mglayout/mglayout/internal/report"
)

// FuzzRead feeds arbitrary documents to Read, and what it accepts to every
// renderer and to Merge: a report.json from another machine is input that
// mglayout compare must survive. Read's errors are one line; the renderers
// must not panic on any report Read accepts.
func FuzzRead(f *testing.F) {
	for _, name := range []string{"../testdata/report.json", "../testdata/report2.json"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"schema": "` + report.Schema + `", "host": {}}`))
	f.Add([]byte(`{"schema": "` + report.Schema + `", "host": {"info": {}}, "verdicts": [{}], "probes": [{}]}`))
	f.Add([]byte(`{"schema": "mglayout/report/v0"}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := report.Read(bytes.NewReader(data))
		if err != nil {
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Errorf("error is not one line: %q", err)
			}
			return
		}
		for name, render := range map[string]func(io.Writer, *report.Report) error{"Text": Text, "Markdown": Markdown, "HTML": HTML} {
			if err := render(io.Discard, r); err != nil && strings.ContainsAny(err.Error(), "\n\r") {
				t.Errorf("%s: error is not one line: %q", name, err)
			}
		}
		m := report.Merge([]report.Machine{{Label: "A", File: "a.json", Report: r}, {Label: "B", File: "b.json", Report: r}})
		if err := CompareText(io.Discard, m); err != nil && strings.ContainsAny(err.Error(), "\n\r") {
			t.Errorf("CompareText: error is not one line: %q", err)
		}
		m.Regressions()
	})
}
