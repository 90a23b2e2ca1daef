package falsesharing_test

import "testing"

// TestFacts checks that the hot members of an exported type travel to the
// packages that import it. shard.Counter's n is a plain int64 that only
// shard updates, through atomic.AddInt64(&c.n, 1); analysing shard
// exports the fact hot(n) on Counter, and only that fact tells the
// analysis of user that Table's [8]shard.Counter is a table of 8-byte
// hot shards (FS1). Running user analyses shard first, as go vet does.
func TestFacts(t *testing.T) {
	runEach(t, "amd64", "", []string{"shard", "user"})
}

// TestFactsNested checks the fact where the imported counter is not the
// element itself but a member of it: an anonymous struct element holding
// a Counter and a tag, and a local named wrapper of a Counter. Each
// element holds a hot n, so the tables are FS1 like user.Table.
func TestFactsNested(t *testing.T) {
	runEach(t, "amd64", "", []string{"usernested"})
}
