// Package misplaced puts a directive where none applies: inside a
// function.
package misplaced

import "sync/atomic"

type Counter struct {
	n atomic.Int64
}

func (c *Counter) Add() {
	// want +1 `^//mglayout:hot is not in the doc comment of a type or variable declaration or in a struct field's comment \(put it directly above the declaration or field\)$`
	//mglayout:hot
	c.n.Add(1)
}
