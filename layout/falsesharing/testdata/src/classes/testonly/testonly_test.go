package testonly

import "testing"

func TestGet(t *testing.T) {
	f := &fakeClock{}
	c := &Cache{clock: f, items: map[string]int64{}}
	f.Advance(1)
	if c.Get("a") != 1 {
		t.Fatal("want 1")
	}
}
