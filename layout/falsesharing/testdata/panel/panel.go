// Package panel names the packages of real, concurrency-heavy modules
// that TestPanel in layout/falsesharing checks, so that `go mod tidy`
// keeps each module pinned in go.mod and go.sum. The list checked is
// packages.txt; every path there is imported here.
package panel

import (
	_ "github.com/VictoriaMetrics/metrics"
	_ "github.com/Workiva/go-datastructures/batcher"
	_ "github.com/Workiva/go-datastructures/futures"
	_ "github.com/Workiva/go-datastructures/queue"
	_ "github.com/Workiva/go-datastructures/trie/ctrie"
	_ "github.com/allegro/bigcache/v3"
	_ "github.com/allegro/bigcache/v3/queue"
	_ "github.com/coocood/freecache"
	_ "github.com/dgraph-io/ristretto/v2"
	_ "github.com/dgraph-io/ristretto/v2/z"
	_ "github.com/orcaman/concurrent-map/v2"
	_ "github.com/panjf2000/ants/v2"
	_ "github.com/panjf2000/ants/v2/pkg/sync"
	_ "github.com/patrickmn/go-cache"
	_ "github.com/prometheus/client_golang/prometheus"
	_ "github.com/prometheus/client_golang/prometheus/promhttp"
	_ "github.com/puzpuzpuz/xsync/v4"
	_ "github.com/rcrowley/go-metrics"
	_ "github.com/sourcegraph/conc"
	_ "github.com/sourcegraph/conc/pool"
	_ "github.com/sourcegraph/conc/stream"
	_ "github.com/uber-go/tally/v4"
	_ "go.uber.org/atomic"
)
