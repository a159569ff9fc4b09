// Command gendump writes a kubectl-shaped dump of a Deployment owning
// ReplicaSets owning Pods to stdout:
//
//	go run ./internal/dumpgen/gendump -rs 100 -pods 1000 > dump-100k.yaml
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/gcplay/gcplay/internal/dumpgen"
)

func main() {
	var o dumpgen.Options
	flag.IntVar(&o.ReplicaSets, "rs", 10, "ReplicaSets owned by the Deployment")
	flag.IntVar(&o.Pods, "pods", 100, "Pods owned by each ReplicaSet")
	flag.BoolVar(&o.JSON, "json", false, "write kubectl get -o json's form")
	flag.BoolVar(&o.Kubectl, "kubectl", false, "write the multi-line strings of a real cluster's dump: a last-applied-configuration block, folded condition messages")
	flag.Parse()
	if err := dumpgen.Write(os.Stdout, o); err != nil {
		fmt.Fprintln(os.Stderr, "gendump:", err)
		os.Exit(1)
	}
}
