//go:build ignore

// Mkreadme writes the README's section on the analyzer's rules from the
// rules themselves (falsesharing.Rules), so that the README, the
// analyzer's findings and its SARIF rules never disagree. go generate
// runs it in this directory: it replaces the lines between the section's
// markers in ../../README.md. With -stdout it prints the section instead,
// for the test that checks the README has not drifted.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"log"
	"os"

	"github.com/mglayout/mglayout/layout/falsesharing"
)

const (
	readme = "../../README.md"
	begin  = "<!-- The rules: written by go generate ./layout/falsesharing from its Rules; do not edit. -->\n"
	end    = "<!-- End of the rules. -->\n"
)

func main() {
	stdout := flag.Bool("stdout", false, "print the section instead of writing it into the README")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("mkreadme: ")
	section := generate()
	if *stdout {
		os.Stdout.Write(section)
		return
	}
	data, err := os.ReadFile(readme)
	if err != nil {
		log.Fatal(err)
	}
	i, j := bytes.Index(data, []byte(begin)), bytes.Index(data, []byte(end))
	if i < 0 || j < i {
		log.Fatalf("%s has no section between %q and %q: put the two markers where the rules go", readme, begin, end)
	}
	out := append(append(data[:i:i], section...), data[j+len(end):]...)
	if err := os.WriteFile(readme, out, 0o644); err != nil {
		log.Fatal(err)
	}
}

// generate returns the section, markers included: a heading per rule,
// whose anchor is the rule's URL, its summary, its doc and its two
// examples.
func generate() []byte {
	var buf bytes.Buffer
	buf.WriteString(begin)
	for _, r := range falsesharing.Rules {
		fmt.Fprintf(&buf, "\n### %s %s\n\n_%s._\n\n%s\n\nReported:\n\n```go\n%s\n```\n\nFixed:\n\n```go\n%s\n```\n",
			r.ID, r.Name, r.Summary, r.Doc, r.Bad, r.Good)
	}
	buf.WriteString("\n" + end)
	return buf.Bytes()
}
