//go:build secure

package main

import "regexp"

// returnLine matches a report's "[OP], Return=STATUS, N" line.
var returnLine = regexp.MustCompile(`(?m)^\[([A-Z-]+)\], Return=([A-Z_]+), (\d+)$`)
