//go:build !race

package hbclient

const raceEnabled = false
