package concurrency

import (
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/mglayout/mglayout/layout/gosrc"
)

// What the package's doc comments say of its types: that one goroutine
// uses a value at a time, or that a lock's writers are rare.

// notConcurrentTypes returns the types whose doc comment says they are
// not safe for concurrent use.
func (b *builder) notConcurrentTypes() map[types.Object]bool {
	return b.typesDocumented(saysNotConcurrent)
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

// saysNotConcurrent reports whether a type's doc says one goroutine at a
// time uses it.
func saysNotConcurrent(doc string) bool {
	d := strings.ToLower(strings.Join(strings.Fields(doc), " "))
	for _, s := range []string{"not safe for concurrent", "not thread-safe", "not thread safe", "not goroutine-safe",
		"not goroutine safe", "not concurrency-safe", "not concurrency safe", "must not be used concurrently",
		"not safe to use concurrently", "not safe for use by multiple goroutines", "from a single goroutine",
		"by a single goroutine", "by one goroutine"} {
		if strings.Contains(d, s) {
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
