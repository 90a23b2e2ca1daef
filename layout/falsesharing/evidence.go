package falsesharing

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/mglayout/mglayout/layout/gosrc"
)

// evidence records which functions read and which write each member of
// each struct type of the package: the proof that two members are used
// independently, which a finding needs. A function literal is a unit of
// its own, since it often runs on another goroutine.
type evidence struct {
	writers map[memberKey]map[ast.Node]bool
	readers map[memberKey]map[ast.Node]bool
	// updaters are the functions that read-modify-write a member (an
	// atomic add or compare-and-swap, taking a lock, x++): the writes
	// that make a member hot. A member only ever stored is published,
	// not hammered.
	updaters map[memberKey]map[ast.Node]bool
}

type memberKey struct {
	tn     *types.TypeName
	member string // as gosrc.MemberOf writes it: "a.b", "a[]", "a[].b"
}

// kind is how a function accesses a member.
type kind int

const (
	load   kind = iota
	store       // a plain or atomic store
	update      // a read-modify-write: atomic add, swap, compare-and-swap, lock, x++
)

// Methods of sync/atomic types and of mutexes that store, and whether
// they update.
var writingMethods = map[string]kind{
	"Store": store,
	"Add":   update, "Swap": update, "CompareAndSwap": update, "And": update, "Or": update,
	"Lock": update, "Unlock": update, "RLock": update, "RUnlock": update, "TryLock": update, "TryRLock": update,
}

func collectEvidence(info *types.Info, in *inspector.Inspector) *evidence {
	ev := &evidence{writers: map[memberKey]map[ast.Node]bool{}, readers: map[memberKey]map[ast.Node]bool{}, updaters: map[memberKey]map[ast.Node]bool{}}
	filter := []ast.Node{(*ast.SelectorExpr)(nil)}
	in.WithStack(filter, func(n ast.Node, push bool, stack []ast.Node) bool {
		if !push {
			return true
		}
		sel := n.(*ast.SelectorExpr)
		if s := info.Selections[sel]; s == nil || s.Kind() != types.FieldVal {
			return true
		}
		// Only the outermost selector of a chain names the member: in
		// x.a.b, x.a is visited too and is part of the same access.
		outer := stack[len(stack)-2]
		if p, ok := outer.(*ast.SelectorExpr); ok && p.X == n {
			if s := info.Selections[p]; s != nil && s.Kind() == types.FieldVal {
				return true
			}
		}
		tn, member := gosrc.MemberOf(info, sel)
		if tn == nil {
			return true
		}
		unit := enclosingFunc(stack)
		if unit == nil {
			return true
		}
		k := memberKey{tn, member}
		switch accessKind(info, sel, stack) {
		case update:
			add(ev.updaters, k, unit)
			add(ev.writers, k, unit)
		case store:
			add(ev.writers, k, unit)
		default:
			add(ev.readers, k, unit)
		}
		return true
	})
	return ev
}

func add(m map[memberKey]map[ast.Node]bool, k memberKey, unit ast.Node) {
	if m[k] == nil {
		m[k] = map[ast.Node]bool{}
	}
	m[k][unit] = true
}

// enclosingFunc returns the innermost function declaration or literal.
func enclosingFunc(stack []ast.Node) ast.Node {
	for i := len(stack) - 1; i >= 0; i-- {
		switch stack[i].(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return stack[i]
		}
	}
	return nil
}

// accessKind says how the member access uses the member: the left of an
// assignment stores, of an op-assignment or ++/-- updates; a method of an
// atomic or a lock, or a sync/atomic function given the member's
// address, stores or updates as its name says; anything else loads.
func accessKind(info *types.Info, sel *ast.SelectorExpr, stack []ast.Node) kind {
	i := len(stack) - 2
	var child ast.Node = sel
	// Skip index expressions and parentheses: x.a[i] = v writes x.a.
	for i >= 0 {
		switch p := stack[i].(type) {
		case *ast.ParenExpr:
			child, i = p, i-1
			continue
		case *ast.IndexExpr:
			if p.X == child {
				child, i = p, i-1
				continue
			}
		}
		break
	}
	if i < 0 {
		return load
	}
	switch p := stack[i].(type) {
	case *ast.AssignStmt:
		for _, lhs := range p.Lhs {
			if lhs == child {
				switch p.Tok {
				case token.DEFINE:
					return load
				case token.ASSIGN:
					return store
				}
				return update
			}
		}
	case *ast.IncDecStmt:
		if p.X == child {
			return update
		}
	case *ast.SelectorExpr:
		// x.n.Add(1): a method of the member's type.
		if k, ok := writingMethods[p.Sel.Name]; ok && p.X == child {
			if f, ok := info.Uses[p.Sel].(*types.Func); ok && f.Pkg() != nil {
				if path := f.Pkg().Path(); path == "sync/atomic" || path == "sync" {
					return k
				}
			}
		}
	case *ast.UnaryExpr:
		// atomic.AddInt64(&x.n, 1)
		if p.Op == token.AND && i > 0 {
			if call, ok := stack[i-1].(*ast.CallExpr); ok && len(call.Args) > 0 && call.Args[0] == p {
				return atomicFuncKind(info, call.Fun)
			}
		}
	}
	return load
}

// atomicFuncKind says how a sync/atomic function uses the address it is
// given.
func atomicFuncKind(info *types.Info, fun ast.Expr) kind {
	sel, ok := ast.Unparen(fun).(*ast.SelectorExpr)
	if !ok {
		return load
	}
	f, ok := info.Uses[sel.Sel].(*types.Func)
	if !ok || f.Pkg() == nil || f.Pkg().Path() != "sync/atomic" {
		return load
	}
	name := f.Name()
	if strings.HasPrefix(name, "Store") {
		return store
	}
	for _, prefix := range []string{"Add", "Swap", "CompareAndSwap", "And", "Or"} {
		if strings.HasPrefix(name, prefix) {
			return update
		}
	}
	return load
}

// writersOf returns the functions that write a member or any member
// inside it (an aggregate, or an array's elements).
func (ev *evidence) writersOf(tn types.Object, member string) map[ast.Node]bool {
	return ev.collect(ev.writers, tn, member)
}

// updatersOf returns the functions that read-modify-write a member or a
// member inside it.
func (ev *evidence) updatersOf(tn types.Object, member string) map[ast.Node]bool {
	return ev.collect(ev.updaters, tn, member)
}

func (ev *evidence) readersOf(tn types.Object, member string) map[ast.Node]bool {
	return ev.collect(ev.readers, tn, member)
}

func (ev *evidence) collect(m map[memberKey]map[ast.Node]bool, tn types.Object, member string) map[ast.Node]bool {
	out := map[ast.Node]bool{}
	for k, units := range m {
		if types.Object(k.tn) != tn || !within(k.member, member) {
			continue
		}
		for u := range units {
			out[u] = true
		}
	}
	return out
}

// within reports whether the access path lies in member: itself, a member
// of it, or an element of it.
func within(access, member string) bool {
	if access == member {
		return true
	}
	if len(access) > len(member) && access[:len(member)] == member {
		switch access[len(member)] {
		case '.', '[':
			return true
		}
	}
	return false
}

// independent reports whether some function writes one member and not the
// other: they are then written independently, and a shared line is false
// sharing.
func independent(a, b map[ast.Node]bool) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	for u := range a {
		if !b[u] {
			return true
		}
	}
	for u := range b {
		if !a[u] {
			return true
		}
	}
	return false
}

// readsWithout returns a function that reads the member without writing
// the hot one, or nil.
func readsWithout(readers, hotWriters map[ast.Node]bool) ast.Node {
	for u := range readers {
		if !hotWriters[u] {
			return u
		}
	}
	return nil
}
