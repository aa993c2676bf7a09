// Command testsum runs `go test -json` and prints what a reader of a test
// log needs: a line per package, the full output of every failed test as it
// fails, and at the end the slow tests (longer than -slow, 5 s by default),
// every skipped test with its reason, and the counts. The Makefile's test
// targets run it; it is a development tool, not part of gobench.
//
//	go run ./testenv/testsum [flags] -pkgs PATTERNS -- [go test flags]
//	go run ./testenv/testsum -summary FILE...
//
// Flags:
//
//	-pkgs "./..."     packages to test (space-separated patterns)
//	-slow 5s          name tests that ran longer than this
//	-only-tag TAG     run only the tests that exist only with build tag TAG
//	                  (see below), adding -tags TAG
//	-save FILE        also write the raw go test -json stream to FILE
//	-no-summary       leave out the final lists (for a later -summary)
//	-summary FILE...  print the final lists of saved streams; run nothing
//
// # Running each test once
//
// The unit pass runs every test that builds without the integration tag.
// With -only-tag integration, testsum asks `go list` for each package's test
// files with and without the tag; the files that only the tagged build has
// are the integration files, and their Test and Fuzz functions (read with
// go/parser) are the only ones run, one package after another (never two
// at once: fault tests stop and freeze the shared servers), with
// -run '^(A|B)$'. So a test lives in exactly one pass, decided by its file's
// //go:build line, and no naming convention can drop one. After the run
// testsum checks that each selected test ran, and fails if one did not or
// if anything else ran. An Example in an integration file is refused (it
// would run only when it has an output comment).
//
// It may import only the standard library.
package main
