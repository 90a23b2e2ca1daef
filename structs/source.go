package structs

import (
	"go/ast"
	"go/parser"
	"go/token"
)

// Source returns the parsed Go mirrors of the models and their contents
// by file name, so that a suggested order can be written as source.
func Source() (*token.FileSet, []*ast.File, map[string][]byte, error) {
	fset := token.NewFileSet()
	entries, err := mirrors.ReadDir("kernel")
	if err != nil {
		return nil, nil, nil, err
	}
	var files []*ast.File
	src := map[string][]byte{}
	for _, e := range entries {
		name := "kernel/" + e.Name()
		data, err := mirrors.ReadFile(name)
		if err != nil {
			return nil, nil, nil, err
		}
		f, err := parser.ParseFile(fset, name, data, parser.ParseComments)
		if err != nil {
			return nil, nil, nil, err
		}
		files = append(files, f)
		src[name] = data
	}
	return fset, files, src, nil
}
