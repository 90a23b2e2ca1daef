package gosrc

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"github.com/mglayout/mglayout/layout/access"
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
	// Paths are the declared access paths. When there are any, nothing
	// is inferred for the type.
	Paths []*access.Path
	// Ignore, with its reason, keeps the type out of the analysis.
	Ignore string
	// Padded says that what follows the object starts at a multiple of
	// this many bytes (layout.Struct.PaddedTo).
	Padded int64
}

// FieldDirectives are the directives in a struct field's comments.
type FieldDirectives struct {
	Hot    bool   // written concurrently, whatever its type says
	Cold   bool   // rarely touched: not part of any inferred path
	Ignore string // the reason to leave the field out of the analysis
}

// Directives holds the directives of a set of files.
type Directives struct {
	Types  map[types.Object]*TypeDirectives // types and package-level variables
	Fields map[*types.Var]*FieldDirectives
}

// Type returns the directives of a declared type or variable, or nil.
func (d Directives) Type(obj types.Object) *TypeDirectives { return d.Types[obj] }

// Field returns the directives of a struct field, or nil.
func (d Directives) Field(v *types.Var) *FieldDirectives { return d.Fields[v] }

const (
	typeForms  = "//mglayout:path " + access.Syntax + " [-- note]; //mglayout:align N; //mglayout:padded N; //mglayout:union; //mglayout:model NAME; //mglayout:ignore REASON"
	fieldForms = "//mglayout:hot, //mglayout:cold, //mglayout:ignore REASON"
)

// ParseDirectives reads every //mglayout: comment in files. A directive that
// is malformed, unknown, or not where it applies (a type's or variable's
// doc comment, or a struct field's comments) is an error naming file:line
// and the accepted forms: a directive is never silently ignored.
func ParseDirectives(fset *token.FileSet, files []*ast.File, info *types.Info) (Directives, error) {
	dirs := Directives{Types: map[types.Object]*TypeDirectives{}, Fields: map[*types.Var]*FieldDirectives{}}
	for _, file := range files {
		if !hasDirective(file) {
			continue // most files: no declaration to walk
		}
		p := &directiveParser{fset: fset, info: info, dirs: dirs, attached: map[*ast.Comment]bool{}}
		if err := p.file(file); err != nil {
			return Directives{}, err
		}
		for _, group := range file.Comments {
			for _, c := range group.List {
				if strings.HasPrefix(c.Text, Prefix) && !p.attached[c] {
					return Directives{}, &DirectiveError{c.Slash, fset.Position(c.Slash), strings.Fields(c.Text)[0] +
						" is not in the doc comment of a type or variable declaration or in a struct field's comment (put it directly above the declaration or field)"}
				}
			}
		}
	}
	return dirs, nil
}

// hasDirective reports whether any comment of a file is a directive.
func hasDirective(file *ast.File) bool {
	for _, group := range file.Comments {
		for _, c := range group.List {
			if strings.HasPrefix(c.Text, Prefix) {
				return true
			}
		}
	}
	return false
}

type directiveParser struct {
	fset     *token.FileSet
	info     *types.Info
	dirs     Directives
	attached map[*ast.Comment]bool
}

func (p *directiveParser) file(file *ast.File) error {
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
				if err := p.fields(spec.Type); err != nil {
					return err
				}
			case *ast.ValueSpec:
				doc, idents = spec.Doc, spec.Names
			default:
				continue
			}
			if doc == nil && len(gen.Specs) == 1 {
				doc = gen.Doc
			}
			for _, id := range idents {
				if err := p.declaration(doc, id); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// directives yields the directive comments of a group, marking them seen.
func (p *directiveParser) directives(groups ...*ast.CommentGroup) []*ast.Comment {
	var out []*ast.Comment
	for _, g := range groups {
		if g == nil {
			continue
		}
		for _, c := range g.List {
			if strings.HasPrefix(c.Text, Prefix) {
				p.attached[c] = true
				out = append(out, c)
			}
		}
	}
	return out
}

func (p *directiveParser) declaration(doc *ast.CommentGroup, ident *ast.Ident) error {
	obj := p.info.Defs[ident]
	for _, c := range p.directives(doc) {
		if obj == nil {
			continue
		}
		d := p.dirs.Types[obj]
		if d == nil {
			d = &TypeDirectives{}
			p.dirs.Types[obj] = d
		}
		if err := d.parse(c.Text, p.fset.Position(c.Slash)); err != nil {
			return &DirectiveError{c.Slash, p.fset.Position(c.Slash), err.Error()}
		}
	}
	return nil
}

// fields reads the directives of the fields of a struct type expression,
// at every depth of anonymous struct types.
func (p *directiveParser) fields(expr ast.Expr) error {
	var err error
	ast.Inspect(expr, func(n ast.Node) bool {
		st, ok := n.(*ast.StructType)
		if !ok || err != nil {
			return err == nil
		}
		for _, field := range st.Fields.List {
			for _, c := range p.directives(field.Doc, field.Comment) {
				var fd FieldDirectives
				if e := fd.parse(c.Text); e != nil {
					err = &DirectiveError{c.Slash, p.fset.Position(c.Slash), e.Error()}
					return false
				}
				idents := field.Names
				if len(idents) == 0 { // an embedded field
					if id := embeddedIdent(field.Type); id != nil {
						idents = []*ast.Ident{id}
					}
				}
				for _, id := range idents {
					if !p.addField(p.info.Defs[id], fd) {
						err = &DirectiveError{c.Slash, p.fset.Position(c.Slash), c.Text + ": the field is also marked the other way; a field is either hot or cold"}
						return false
					}
				}
			}
		}
		return true
	})
	return err
}

// addField merges a field's directives, reporting false when they
// contradict each other (hot and cold in separate comments).
func (p *directiveParser) addField(obj types.Object, fd FieldDirectives) bool {
	v, ok := obj.(*types.Var)
	if !ok {
		return true
	}
	d := p.dirs.Fields[v]
	if d == nil {
		d = &FieldDirectives{}
		p.dirs.Fields[v] = d
	}
	d.Hot = d.Hot || fd.Hot
	d.Cold = d.Cold || fd.Cold
	if fd.Ignore != "" {
		d.Ignore = fd.Ignore
	}
	return !(d.Hot && d.Cold)
}

func embeddedIdent(expr ast.Expr) *ast.Ident {
	switch e := expr.(type) {
	case *ast.Ident:
		return e
	case *ast.StarExpr:
		return embeddedIdent(e.X)
	case *ast.SelectorExpr:
		return e.Sel
	case *ast.IndexExpr:
		return embeddedIdent(e.X)
	case *ast.IndexListExpr:
		return embeddedIdent(e.X)
	}
	return nil
}

// DirectiveError is a directive that cannot be used, at its position.
type DirectiveError struct {
	At  token.Pos
	Pos token.Position
	Msg string
}

func (e *DirectiveError) Error() string { return e.Pos.String() + ": " + e.Msg }

func (d *TypeDirectives) parse(text string, pos token.Position) error {
	body := strings.TrimPrefix(text, Prefix)
	words := strings.Fields(body)
	if len(words) == 0 {
		return fmt.Errorf("empty directive %q (accepted: %s)", text, typeForms)
	}
	verb, args := words[0], words[1:]
	switch {
	case verb == "align" && len(args) == 1:
		n, err := strconv.ParseInt(args[0], 10, 64)
		if err != nil || n <= 0 || n&(n-1) != 0 {
			return fmt.Errorf("%s: %q is not a power of two (want //mglayout:align N, e.g. 64)", text, args[0])
		}
		d.Align = n
	case verb == "padded" && len(args) == 1:
		n, err := strconv.ParseInt(args[0], 10, 64)
		if err != nil || n <= 0 || n&(n-1) != 0 {
			return fmt.Errorf("%s: %q is not a power of two (want //mglayout:padded N, e.g. 64)", text, args[0])
		}
		d.Padded = n
	case verb == "union" && len(args) == 0:
		d.Union = true
	case verb == "model" && len(args) == 1:
		d.Model = args[0]
	case verb == "ignore" && len(args) > 0:
		d.Ignore = strings.Join(args, " ")
	case verb == "path":
		spec, note, _ := strings.Cut(strings.TrimSpace(strings.TrimPrefix(body, "path")), " -- ")
		path, err := access.Parse(spec)
		if err != nil {
			return fmt.Errorf("%s: %v", text, err)
		}
		path.Doc, path.Pos = strings.TrimSpace(note), pos.String()
		if path.Doc == "" {
			path.Doc = "declared at " + pos.String()
		}
		for _, other := range d.Paths {
			if other.Name == path.Name {
				return fmt.Errorf("%s: path %s is declared twice", text, path.Name)
			}
		}
		d.Paths = append(d.Paths, path)
	case verb == "ignore":
		return fmt.Errorf("%s needs a reason (//mglayout:ignore REASON), so that whoever reads it later knows why", text)
	case verb == "hot" || verb == "cold":
		return fmt.Errorf("%s belongs in a struct field's comment, not a type's (accepted here: %s)", text, typeForms)
	default:
		return fmt.Errorf("malformed directive %q (accepted: %s)", text, typeForms)
	}
	return nil
}

func (d *FieldDirectives) parse(text string) error {
	words := strings.Fields(strings.TrimPrefix(text, Prefix))
	switch {
	case len(words) == 1 && words[0] == "hot":
		d.Hot = true
	case len(words) == 1 && words[0] == "cold":
		d.Cold = true
	case len(words) > 1 && words[0] == "ignore":
		d.Ignore = strings.Join(words[1:], " ")
	case len(words) == 1 && words[0] == "ignore":
		return fmt.Errorf("%s needs a reason (//mglayout:ignore REASON), so that whoever reads it later knows why", text)
	case len(words) > 0 && (words[0] == "path" || words[0] == "align" || words[0] == "union" || words[0] == "model" || words[0] == "padded"):
		return fmt.Errorf("%s belongs in a type's doc comment, not a field's (accepted here: %s)", text, fieldForms)
	default:
		return fmt.Errorf("malformed directive %q (accepted on a field: %s)", text, fieldForms)
	}
	if d.Hot && d.Cold {
		return fmt.Errorf("%s: a field cannot be both hot and cold", text)
	}
	return nil
}
