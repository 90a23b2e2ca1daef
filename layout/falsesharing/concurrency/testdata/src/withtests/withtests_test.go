package withtests

import "testing"

func TestLimit(t *testing.T) {
	s := &Stats{}
	s.limit = 3
	s.Add()
}
