package gosrc

import (
	"go/ast"
	"go/token"
	"iter"
)

// TypeSpecs yields the type declarations of files, each with the
// declaration that holds it (whose doc comment is a lone spec's).
func TypeSpecs(files []*ast.File) iter.Seq2[*ast.GenDecl, *ast.TypeSpec] {
	return func(yield func(*ast.GenDecl, *ast.TypeSpec) bool) {
		for _, file := range files {
			for _, decl := range file.Decls {
				gen, ok := decl.(*ast.GenDecl)
				if !ok || gen.Tok != token.TYPE {
					continue
				}
				for _, spec := range gen.Specs {
					if !yield(gen, spec.(*ast.TypeSpec)) {
						return
					}
				}
			}
		}
	}
}
