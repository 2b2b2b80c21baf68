package main

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

func printLoadHeader() {
	fmt.Println("| config | mix | req/s | p50 | p99 | writes p50 | writes p99 | errors | creates acked | edits acked | edit 409s |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|")
}

func printLoadRow(config, mix string, s *stats) {
	p50, p99 := percentiles(s.all)
	w50, w99 := percentiles(s.writes)
	creates, edits := s.acked()
	writes := []string{"–", "–"}
	if len(s.writes) > 0 {
		writes = []string{ms(w50), ms(w99)}
	}
	fmt.Printf("| %s | %s | %.0f | %s | %s | %s | %s | %s | %d | %d | %d |\n", config, mix,
		s.rate(), ms(p50), ms(p99), writes[0], writes[1], errorSummary(s), creates, edits, s.conflicts)
}

// targetLine compares the write mix with the read-only one by the issue's
// target for SQLite: at least half the req/s, with p99 at most 250 ms.
func targetLine(config, mix string, read, write *stats) string {
	share := write.rate() / read.rate()
	_, p99 := percentiles(write.all)
	verdict := "met"
	if share < 0.5 || p99 > 250*time.Millisecond {
		verdict = "missed"
	}
	return fmt.Sprintf("%s: %s at %.0f %% of the read-only req/s, p99 %s (target: at least 50 %%, at most 250 ms): %s",
		config, mix, 100*share, ms(p99), verdict)
}

// errorSummary is the error count with its split, e.g. "12 (POST 500 ×12)".
func errorSummary(s *stats) string {
	n := s.errorCount()
	if n == 0 {
		return "0"
	}
	var parts []string
	for _, k := range errorKinds(s) {
		parts = append(parts, fmt.Sprintf("%s ×%d", k, s.errors[k]))
	}
	return fmt.Sprintf("%d (%s)", n, strings.Join(parts, ", "))
}

// errorNotes shows the first answer of each kind of error.
func errorNotes(label string, s *stats) []string {
	var out []string
	for _, k := range errorKinds(s) {
		out = append(out, fmt.Sprintf("%s: %s ×%d, the first: %s", label, k, s.errors[k], s.examples[k]))
	}
	return out
}

func errorKinds(s *stats) []string {
	var kinds []string
	for k := range s.errors {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	return kinds
}

func printChecks(rows []checkRow) {
	fmt.Println("\nExactly once, read from the database after the write mix (instances stopped):")
	fmt.Println()
	fmt.Println("| config | creates acked | stored once | lost | twice+ | other id | not acked (stored) | edits acked | audited once | lost updates | stored value wrong | later unacked edit | all acked writes once |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	var problems []string
	for _, r := range rows {
		verdict := "yes"
		if !r.ok() {
			verdict = "NO"
		}
		fmt.Printf("| %s | %d | %d | %d | %d | %d | %d (%d) creates, %d (%d) edits | %d | %d | %d | %d | %d | %s |\n",
			r.config, r.creates, r.createsOnce, r.createsLost, r.createsTwice, r.moved,
			r.unackedCreates, r.unackedCreatesStored, r.unackedEdits, r.unackedEditsStored,
			r.edits, r.editsAudited, r.lostUpdates, r.finalWrong, r.finalLate, verdict)
		problems = append(problems, r.problems...)
	}
	for _, p := range problems {
		fmt.Println("- " + p)
	}
}

// printList prints a titled list, unless it is empty.
func printList(title string, items []string) {
	if len(items) == 0 {
		return
	}
	fmt.Println("\n" + title)
	for _, it := range items {
		fmt.Println("- " + it)
	}
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
