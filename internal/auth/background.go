package auth

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// Mail and the lookups behind "if this account exists, mail it" run off the request path, on a
// few workers: a slow SMTP server never holds a request, and the answer to an address that has
// an account leaves at the same time as the answer to one that has none (the request does the
// same work either way: it queues a job). Close lets the queued jobs finish.

const (
	backgroundWorkers = 4
	backgroundQueue   = 1024
	jobTimeout        = 30 * time.Second // one job: a lookup, a row, a mail
)

type background struct {
	once sync.Once
	jobs chan func(context.Context)
	wg   sync.WaitGroup
	mu   sync.RWMutex // held for reading while queueing, for writing by close
	shut bool
}

func (b *background) start() {
	b.once.Do(func() {
		b.jobs = make(chan func(context.Context), backgroundQueue)
		for range backgroundWorkers {
			b.wg.Add(1)
			go func() {
				defer b.wg.Done()
				for job := range b.jobs {
					ctx, cancel := context.WithTimeout(context.Background(), jobTimeout)
					job(ctx)
					cancel()
				}
			}()
		}
	})
}

// later queues job. When the queue is full it waits for room as long as the request lives;
// after Close the job is dropped (the server is stopping).
func (s *Service) later(ctx context.Context, job func(context.Context)) {
	b := &s.bg
	b.start()
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.shut {
		slog.Warn("auth: server stopping, background job dropped")
		return
	}
	select {
	case b.jobs <- job:
	case <-ctx.Done():
		slog.Error("auth: background queue full, job dropped")
	}
}

// Close waits for the queued jobs (mails) to finish, at most until ctx ends.
func (s *Service) Close(ctx context.Context) error {
	b := &s.bg
	b.start()
	b.mu.Lock()
	if !b.shut {
		b.shut = true
		close(b.jobs)
	}
	b.mu.Unlock()
	done := make(chan struct{})
	go func() { b.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
