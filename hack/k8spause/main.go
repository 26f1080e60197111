// Command k8spause is the one-node test cluster's sandbox ("pause") process:
// the first process of every Pod, holding its namespaces. It sleeps, reaps
// the zombies it inherits and exits on SIGTERM or SIGINT. hack/k8s-up.sh
// builds it statically into the image the private containerd uses as its
// sandbox image, there being no registry to pull the usual one from.
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGCHLD)
	for sig := range sigs {
		if sig != syscall.SIGCHLD {
			return
		}
		for {
			var ws syscall.WaitStatus
			pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
			if pid <= 0 || err != nil {
				break
			}
		}
	}
}
