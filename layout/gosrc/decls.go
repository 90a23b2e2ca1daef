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
		for gen, spec := range genSpecs(files, token.TYPE) {
			if !yield(gen, spec.(*ast.TypeSpec)) {
				return
			}
		}
	}
}

// genSpecs yields the specs of the declarations of one kind (type,
// const, var) of files, each with its declaration.
func genSpecs(files []*ast.File, tok token.Token) iter.Seq2[*ast.GenDecl, ast.Spec] {
	return func(yield func(*ast.GenDecl, ast.Spec) bool) {
		for _, file := range files {
			for _, decl := range file.Decls {
				gen, ok := decl.(*ast.GenDecl)
				if !ok || gen.Tok != tok {
					continue
				}
				for _, spec := range gen.Specs {
					if !yield(gen, spec) {
						return
					}
				}
			}
		}
	}
}
