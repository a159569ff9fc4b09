package main

import "syscall"

// peakRSS is the process's peak resident memory in bytes (getrusage's
// ru_maxrss, which Linux gives in KB); 0 when it cannot be read.
func peakRSS() uint64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil || ru.Maxrss < 0 {
		return 0
	}
	return uint64(ru.Maxrss) << 10
}
