package concurrency

import (
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/mglayout/mglayout/layout/gosrc"
)

// What the package's doc comments say of its types: that one goroutine
// uses a value at a time, or that a lock's writers are rare.

// notConcurrentTypes returns the types whose doc comment says they are
// not safe for concurrent use, or whose constructor's does (NewTxn: "the
// returned Txn must not be used by several goroutines at once), and the
// types a pool of the package lends out (pooledTypes).
func (b *builder) notConcurrentTypes() map[types.Object]bool {
	out := b.typesDocumented(saysNotConcurrent)
	for obj := range b.pooledTypes() {
		out[obj] = true
	}
	for _, f := range b.files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Doc == nil || fd.Recv != nil || !saysNotConcurrent(fd.Doc.Text()) {
				continue
			}
			fn, ok := b.info.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			for v := range fn.Signature().Results().Variables() {
				t := v.Type()
				if p, ok := t.(*types.Pointer); ok {
					t = p.Elem()
				}
				if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() == fn.Pkg() {
					out[n.Origin().Obj()] = true
				}
			}
		}
	}
	return out
}

// typesDocumented returns the package's types whose doc comment says
// what says looks for.
func (b *builder) typesDocumented(says func(doc string) bool) map[types.Object]bool {
	out := map[types.Object]bool{}
	for gen, ts := range gosrc.TypeSpecs(b.files) {
		doc := ts.Doc
		if doc == nil && len(gen.Specs) == 1 {
			doc = gen.Doc
		}
		if doc == nil || !says(doc.Text()) {
			continue
		}
		if obj := b.info.Defs[ts.Name]; obj != nil {
			out[obj] = true
		}
	}
	return out
}

// lendVerbs and returnVerbs name a pool's methods that lend a value out
// and take it back.
var (
	lendVerbs   = []string{"Get", "Acquire", "Take", "Borrow", "Checkout", "Alloc"}
	returnVerbs = []string{"Put", "Release", "Return", "Free", "Recycle", "Checkin"}
)

// pooledTypes returns the struct types of the package that a pool of it
// lends out: some method of a type lends a *T (Get, Acquire...) and one
// of the same type takes a *T back (Put, Release...). Between the two,
// the borrower alone uses the value: a pooled connection, a buffer.
func (b *builder) pooledTypes() map[types.Object]bool {
	lent, taken := map[types.Object]map[types.Object]bool{}, map[types.Object]map[types.Object]bool{}
	add := func(m map[types.Object]map[types.Object]bool, pool types.Object, t types.Type) {
		p, ok := t.(*types.Pointer)
		if !ok {
			return
		}
		n, ok := types.Unalias(p.Elem()).(*types.Named)
		if !ok || pool == nil {
			return
		}
		if _, isStruct := n.Underlying().(*types.Struct); !isStruct {
			return
		}
		if m[pool] == nil {
			m[pool] = map[types.Object]bool{}
		}
		m[pool][n.Origin().Obj()] = true
	}
	for _, obj := range b.info.Defs {
		fn, ok := obj.(*types.Func)
		if !ok {
			continue
		}
		sig := fn.Signature()
		if sig.Recv() == nil {
			continue
		}
		pool := recvObj(sig.Recv().Type())
		switch {
		case slices.Contains(lendVerbs, fn.Name()) && sig.Results().Len() > 0:
			add(lent, pool, sig.Results().At(0).Type())
		case slices.Contains(returnVerbs, fn.Name()):
			for p := range sig.Params().Variables() {
				add(taken, pool, p.Type())
			}
		}
	}
	out := map[types.Object]bool{}
	for pool, ts := range lent {
		for t := range ts {
			if taken[pool][t] && t.Pkg() == pool.Pkg() {
				out[t] = true
			}
		}
	}
	return out
}

// recvObj is the named type a method's receiver is of.
func recvObj(t types.Type) types.Object {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Origin().Obj()
	}
	return nil
}

// saysNotConcurrent reports whether a type's doc says one goroutine at a
// time uses it: a sentence that says it is not safe (thread-safe,
// goroutine-safe) for concurrent use, or must not be shared, or names a
// single goroutine.
func saysNotConcurrent(doc string) bool {
	d := strings.ToLower(strings.Join(strings.Fields(doc), " "))
	for _, s := range []string{"from a single goroutine", "by a single goroutine", "by one goroutine", "one goroutine at a time",
		"must not be shared", "should not be shared", "must not be used concurrently", "should not be used concurrently",
		"not be used from multiple goroutines", "not be used by multiple goroutines", "single-threaded"} {
		if strings.Contains(d, s) {
			return true
		}
	}
	for _, sentence := range strings.FieldsFunc(d, func(r rune) bool { return r == '.' || r == ';' || r == ':' }) {
		negated := strings.Contains(sentence, "not ") || strings.Contains(sentence, "n't ")
		if !negated {
			continue
		}
		// Not safe for concurrent use; not thread-safe.
		if strings.Contains(sentence, "safe") && containsAny(sentence, "concurren", "goroutine", "thread", "parallel") {
			return true
		}
		// Must not be used by several goroutines at once.
		if containsAny(sentence, "use", "share", "call", "access") &&
			containsAny(sentence, "concurrently", "several goroutines", "multiple goroutines", "more than one goroutine", "simultaneously") {
			return true
		}
	}
	return false
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// saysWritesRare reports whether a lock type's doc says it is biased to
// readers: that writers come now and then (xsync's RBMutex: "the vast
// majority of locks are acquired by readers and write lock acquire
// attempts are infrequent").
func saysWritesRare(doc string) bool {
	d := strings.ToLower(strings.Join(strings.Fields(doc), " "))
	for _, s := range []string{"reader biased", "reader-biased", "read-biased", "read biased", "read-mostly",
		"read mostly", "writes are rare", "writes are infrequent", "attempts are infrequent", "writers are rare"} {
		if strings.Contains(d, s) {
			return true
		}
	}
	return false
}

// writeLocks are the names of a reader/writer lock's writer side.
var writeLocks = []string{"Lock", "TryLock", "Unlock"}

// writerOfReadBiased reports whether fn is the writer side of a
// reader/writer lock type (one with RLock too) whose doc says writers
// are rare.
func (b *builder) writerOfReadBiased(fn *ssa.Function) bool {
	recv := fn.Signature.Recv()
	if recv == nil || !slices.Contains(writeLocks, fn.Name()) {
		return false
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := t.(*types.Named)
	if !ok {
		return false
	}
	if b.readBiased == nil {
		b.readBiased = b.typesDocumented(saysWritesRare)
	}
	if !b.readBiased[named.Obj()] {
		return false
	}
	ms := types.NewMethodSet(types.NewPointer(named))
	return ms.Lookup(named.Obj().Pkg(), "RLock") != nil
}
