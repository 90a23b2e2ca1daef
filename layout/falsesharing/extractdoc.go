package falsesharing

import (
	"fmt"
	"go/parser"
	"go/token"
	"strings"
)

// mustExtractDoc returns the documentation of an analyzer from the
// package doc comment of a Go file, as golang.org/x/tools' passes keep
// it: the section under the heading "# Analyzer NAME", whose first line
// is "NAME: summary". One text serves go doc, go vet help and the
// analyzer.
func mustExtractDoc(content, name string) string {
	doc, err := extractDoc(content, name)
	if err != nil {
		panic(err)
	}
	return doc
}

func extractDoc(content, name string) (string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "", content, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		return "", err
	}
	if f.Doc == nil {
		return "", fmt.Errorf("the file has no package doc comment")
	}
	heading := "# Analyzer " + name
	_, section, ok := strings.Cut(f.Doc.Text(), "\n"+heading+"\n")
	if !ok {
		return "", fmt.Errorf("the package doc has no %q heading", heading)
	}
	if next := strings.Index(section, "\n# "); next >= 0 {
		section = section[:next]
	}
	section = strings.TrimSpace(section)
	summary, ok := strings.CutPrefix(section, name+": ")
	if !ok {
		return "", fmt.Errorf("the section %q does not begin with %q", heading, name+": ")
	}
	return summary, nil
}
