package main

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"time"
)

// walSampler watches an SQLite database's write-ahead log during a mix:
// the file's size every walSampleEvery, of which it keeps the largest.
type walSampler struct {
	path string
	stop chan struct{}
	wg   sync.WaitGroup
	peak int64
}

const walSampleEvery = 50 * time.Millisecond

// sampleWAL starts watching the log of d's SQLite file; nil on PostgreSQL.
func sampleWAL(d *database) *walSampler {
	if d.Engine != "sqlite" {
		return nil
	}
	w := &walSampler{path: strings.TrimPrefix(d.URL, "sqlite:") + "-wal", stop: make(chan struct{})}
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		tick := time.NewTicker(walSampleEvery)
		defer tick.Stop()
		for {
			w.peak = max(w.peak, w.size())
			select {
			case <-w.stop:
				return
			case <-tick.C:
			}
		}
	}()
	return w
}

func (w *walSampler) size() int64 {
	fi, err := os.Stat(w.path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// done stops the sampling and describes the log: its peak during the mix
// and its size at the end.
func (w *walSampler) done(label string) string {
	close(w.stop)
	w.wg.Wait()
	return fmt.Sprintf("%s: WAL peak %.1f MiB, %.1f MiB at the end", label, mib(w.peak), mib(w.size()))
}

func mib(n int64) float64 { return float64(n) / (1 << 20) }
