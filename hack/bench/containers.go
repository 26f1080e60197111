package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// benchLine matches a result line of go test -bench, e.g.
// "BenchmarkReset-2   1   412345678 ns/op   412.3 ms/op".
var benchLine = regexp.MustCompile(`^(Benchmark\w+?)(?:-\d+)?\s+(\d+)\s+(\d+(?:\.\d+)?) ns/op`)

// measureContainers runs runtime/docker's BenchmarkCreateStart and
// BenchmarkReset with one operation per sample (-benchtime 1x -count N): each
// sample is one Start, or one Reset, on the real engine. The benchmarks remove
// their containers.
func measureContainers(ctx context.Context, o options) ([]row, error) {
	cmd := exec.CommandContext(ctx, "go", "test", "-run", "^$", "-bench", "^Benchmark(CreateStart|Reset)$",
		"-benchtime", "1x", "-count", strconv.Itoa(o.containers), "./runtime/docker")
	cmd.Dir = o.repo
	interruptOnCancel(cmd)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		os.Stderr.Write(out.Bytes())
		return nil, fmt.Errorf("go test -bench ./runtime/docker: %w", err)
	}
	samples := parseBench(out.String())
	if len(samples["BenchmarkCreateStart"]) == 0 || len(samples["BenchmarkReset"]) == 0 {
		os.Stderr.Write(out.Bytes())
		return nil, fmt.Errorf("go test -bench ./runtime/docker printed no result for BenchmarkCreateStart or BenchmarkReset")
	}
	return []row{
		durationRow("container create+start, real engine (BenchmarkCreateStart)", samples["BenchmarkCreateStart"], 5*time.Second),
		durationRow("container reset: cleanup, remove, start (BenchmarkReset)", samples["BenchmarkReset"], 3*time.Second),
	}, nil
}

// parseBench returns each benchmark's ns/op samples (one per -count).
func parseBench(out string) map[string][]time.Duration {
	samples := map[string][]time.Duration{}
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		m := benchLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		ns, err := strconv.ParseFloat(m[3], 64)
		if err != nil {
			continue
		}
		samples[m[1]] = append(samples[m[1]], time.Duration(ns))
	}
	return samples
}

// interruptOnCancel makes a cancelled context interrupt the command (so it
// cleans up after itself) instead of killing it; it is killed if it has not
// ended 30 s later.
func interruptOnCancel(cmd *exec.Cmd) {
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 30 * time.Second
}

func dockerVersion(ctx context.Context) string {
	out, err := exec.CommandContext(ctx, "docker", "version", "--format", "{{.Server.Version}} (API {{.Server.APIVersion}})").Output()
	if err != nil {
		return "?"
	}
	return strings.TrimSpace(string(out))
}
