// Package within bounds how long a start may take: the conformance
// runner's clusters are started by upstream's test server, which can wait
// without a deadline of its own.
package within

import (
	"errors"
	"fmt"
	"time"
)

// ErrTimeout is what Start's error wraps when the limit passed first.
var ErrTimeout = errors.New("timed out")

// Start runs start and returns what it returns, or, once limit has passed
// without an answer, an error wrapping ErrTimeout. A start that answers
// after the limit is not waited for: stop is called on what it made, if it
// made something without an error.
func Start[T any](limit time.Duration, start func() (T, error), stop func(T)) (T, error) {
	type answer struct {
		v   T
		err error
	}
	done := make(chan answer, 1)
	go func() {
		v, err := start()
		done <- answer{v, err}
	}()
	timer := time.NewTimer(limit)
	defer timer.Stop()
	select {
	case a := <-done:
		return a.v, a.err
	case <-timer.C:
		go func() {
			if a := <-done; a.err == nil {
				stop(a.v)
			}
		}()
		var zero T
		return zero, fmt.Errorf("%w after %s", ErrTimeout, limit)
	}
}
