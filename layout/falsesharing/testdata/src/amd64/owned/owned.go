// Package owned holds shards that goroutines write with plain stores,
// one goroutine per shard: no atomics, and false sharing all the same.
package owned

import "sync"

type counts struct {
	n, sum int64
}

type Merger struct {
	shards []counts // want `elements of shards are 16 bytes, so neighbouring shards share lines \(64 B lines on amd64\) and the CPUs writing them false-share; pad each element to 64 bytes: the goroutine started in \(\*Merger\)\.Merge stores an element of shards chosen per CPU or goroutine, at random or by a ticket \(FS1, proven\)`
}

// Merge adds each input's values into its shard, one goroutine per shard.
func (m *Merger) Merge(inputs [][]int64) {
	var wg sync.WaitGroup
	for i := range m.shards {
		wg.Add(1)
		go func(shard int) {
			defer wg.Done()
			for _, v := range inputs[shard] {
				m.shards[shard].n++
				m.shards[shard].sum += v
			}
		}(i)
	}
	wg.Wait()
}
