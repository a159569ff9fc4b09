// Command cronzone runs a CronJob whose schedule is in a time zone
// (spec.timeZone) for a minute and prints whether it made its Job, as a
// real cluster would. kube-controller-manager carries its own copy of the
// time zone database; so does gcplay's engine, because the browser has
// none to read. TestCronJobTimeZoneInTheBrowser runs this natively and as
// the page's WebAssembly with the browser's stand-in file system.
package main

import (
	"fmt"

	"github.com/gcplay/gcplay/scenario"
)

// At 01:01 in Paris, which in January is 00:01 UTC: the world's clock
// starts at midnight UTC, so the Job is there after 61 seconds only when
// the zone was found (in UTC the schedule would come an hour later).
const world = `name: cronjob-time-zone
controllers: [cronjob, job]
objects:
  - apiVersion: batch/v1
    kind: CronJob
    metadata: {name: tick}
    spec:
      schedule: "1 1 * * *"
      timeZone: Europe/Paris
      jobTemplate:
        spec:
          template:
            spec:
              restartPolicy: Never
              containers: [{name: c, image: busybox}]
steps:
  - settle: {}
  - advance: 61s
  - expect:
      exists: [Job/tick-29453761]
`

func main() {
	sc, err := scenario.Parse("cronjob-time-zone.yaml", []byte(world))
	if err != nil {
		fmt.Println("parse:", err)
		return
	}
	res := scenario.Run(sc, scenario.RunOptions{})
	if res.InternalError != "" {
		fmt.Println("internal error:", res.InternalError)
		return
	}
	if err := res.Err(); err != nil {
		fmt.Println("run:", err)
		return
	}
	fmt.Println("ok: the Job of 01:01 Europe/Paris was made at 00:01 UTC")
}
