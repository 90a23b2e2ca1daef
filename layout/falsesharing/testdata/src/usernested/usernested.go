// Package usernested uses shard.Counter inside the elements of per-CPU
// tables rather than as the elements themselves. The fact on
// shard.Counter says its n is hot wherever a Counter is embedded, so an
// element that holds one is as hot as a Counter element: these tables
// false-share like user.Table does.
package usernested

import "shard"

// Tagged's elements are a Counter and a tag: 16 bytes, four per line.
type Tagged struct {
	cs [8]struct { // want `elements of cs are 16 bytes.*pad each element to 64 bytes: .*\(FS1, proven\)`
		c   shard.Counter
		tag uint64
	}
}

func (t *Tagged) Inc(cpu int) { t.cs[cpu%8].c.Inc() }

// slot is a local named wrapper of a Counter.
type slot struct {
	c shard.Counter
}

// Slots' elements are 8-byte slots: FS1.
type Slots struct {
	s [8]slot // want `elements of s are 8 bytes.*pad each element to 64 bytes: .*\(FS1, proven\)`
}

func (t *Slots) Inc(cpu int) { t.s[cpu%8].c.Inc() }
