package within

import (
	"errors"
	"testing"
	"time"
)

func TestStartAnswersInTime(t *testing.T) {
	stopped := make(chan int, 1)
	v, err := Start(time.Minute, func() (int, error) { return 7, nil }, func(v int) { stopped <- v })
	if v != 7 || err != nil {
		t.Fatalf("Start = %d, %v; want 7, nil", v, err)
	}
	select {
	case v := <-stopped:
		t.Fatalf("stop(%d) called on a start that answered in time", v)
	default:
	}
	boom := errors.New("boom")
	if _, err := Start(time.Minute, func() (int, error) { return 0, boom }, func(int) {}); err != boom {
		t.Fatalf("Start's error = %v; want the start's own", err)
	}
}

func TestStartPastTheLimitIsStoppedWhenItAnswers(t *testing.T) {
	release := make(chan struct{})
	stopped := make(chan int, 1)
	v, err := Start(10*time.Millisecond, func() (int, error) {
		<-release
		return 42, nil
	}, func(v int) { stopped <- v })
	if !errors.Is(err, ErrTimeout) || v != 0 {
		t.Fatalf("Start = %d, %v; want 0 and ErrTimeout", v, err)
	}
	close(release)
	if got := <-stopped; got != 42 {
		t.Fatalf("stop got %d; want the late start's 42", got)
	}
}
