package gosrc

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// Prefix starts every directive comment.
const Prefix = "//mglayout:"

// TypeDirectives are the directives found in one type's (or variable's)
// doc comment.
type TypeDirectives struct {
	// Align forces a minimum alignment, like C's __attribute__((aligned(N))).
	// On a type it also rounds the size up, as in C; on a variable it only
	// places the object.
	Align int64
	// Union lays the struct's fields over each other, as a C union.
	Union bool
	// Model names the declaration as a built-in model, e.g. tk_core@v6.1.
	Model string
}

// accepted lists the directive forms in error messages.
const accepted = "//mglayout:align N (N a power of two), //mglayout:union, //mglayout:model NAME"

// Directives maps each declared type or package-level variable to its
// directives.
type Directives map[types.Object]*TypeDirectives

// ParseDirectives reads every //mglayout: comment in files. A directive that
// is malformed, unknown, or not in the doc comment of a type or variable
// declaration is an error naming file:line and the accepted forms: a
// directive is never silently ignored.
func ParseDirectives(fset *token.FileSet, files []*ast.File, info *types.Info) (Directives, error) {
	dirs := Directives{}
	for _, file := range files {
		attached := map[*ast.Comment]bool{}
		attach := func(doc *ast.CommentGroup, ident *ast.Ident) error {
			if doc == nil {
				return nil
			}
			for _, c := range doc.List {
				if !strings.HasPrefix(c.Text, Prefix) {
					continue
				}
				attached[c] = true
				obj := info.Defs[ident]
				if obj == nil {
					continue
				}
				d := dirs[obj]
				if d == nil {
					d = &TypeDirectives{}
					dirs[obj] = d
				}
				if err := d.parse(c.Text); err != nil {
					return &DirectiveError{fset.Position(c.Slash), err.Error()}
				}
			}
			return nil
		}
		for _, decl := range file.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, spec := range gen.Specs {
				var doc *ast.CommentGroup
				var idents []*ast.Ident
				switch spec := spec.(type) {
				case *ast.TypeSpec:
					doc, idents = spec.Doc, []*ast.Ident{spec.Name}
				case *ast.ValueSpec:
					doc, idents = spec.Doc, spec.Names
				default:
					continue
				}
				if doc == nil && len(gen.Specs) == 1 {
					doc = gen.Doc
				}
				for _, id := range idents {
					if err := attach(doc, id); err != nil {
						return nil, err
					}
				}
			}
		}
		for _, group := range file.Comments {
			for _, c := range group.List {
				if strings.HasPrefix(c.Text, Prefix) && !attached[c] {
					return nil, &DirectiveError{fset.Position(c.Slash), strings.Fields(c.Text)[0] +
						" is not in the doc comment of a type or variable declaration (put it directly above the declaration)"}
				}
			}
		}
	}
	return dirs, nil
}

// DirectiveError is a directive that cannot be used, at its position.
type DirectiveError struct {
	Pos token.Position
	Msg string
}

func (e *DirectiveError) Error() string { return e.Pos.String() + ": " + e.Msg }

func (d *TypeDirectives) parse(text string) error {
	words := strings.Fields(strings.TrimPrefix(text, Prefix))
	if len(words) == 0 {
		return fmt.Errorf("empty directive %q (accepted: %s)", text, accepted)
	}
	verb, args := words[0], words[1:]
	switch {
	case verb == "align" && len(args) == 1:
		n, err := strconv.ParseInt(args[0], 10, 64)
		if err != nil || n <= 0 || n&(n-1) != 0 {
			return fmt.Errorf("%s: %q is not a power of two (accepted: %s)", text, args[0], accepted)
		}
		d.Align = n
	case verb == "union" && len(args) == 0:
		d.Union = true
	case verb == "model" && len(args) == 1:
		d.Model = args[0]
	default:
		return fmt.Errorf("malformed directive %q (accepted: %s)", text, accepted)
	}
	return nil
}
