package main

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestReadmeCommands holds the README to the binary and the Makefile: every
// `portico …` its Commands block lists is a command run knows, with the flags
// it shows, and every command the binary knows is listed there; every
// `portico …` and `make …` in the README's code (fenced blocks and `spans`)
// names a command or a Makefile target that exists. Nothing is started: a
// command is asked for its -h, which run answers before it opens anything.
func TestReadmeCommands(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	makefile, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	problems := readmeProblems(string(readme), string(makefile))
	for _, p := range problems {
		t.Error(p)
	}

	// The check can fail: a README naming a command, a flag and a target that
	// do not exist, and leaving one command out, is told so on each count.
	block := "```\nportico serve "
	if !strings.Contains(string(readme), block) {
		t.Fatalf("README: no Commands block starting %q", block)
	}
	broken := strings.Replace(string(readme), block,
		"```\nportico frobnicate            no such command\nportico seed                  [-no-such-flag]\nportico serve ", 1)
	broken = regexp.MustCompile(`(?m)^portico emulator-accounts .*\n`).ReplaceAllString(broken, "")
	broken += "\nThen `make no-such-target` and `bin/portico roles frob`.\n"
	got := strings.Join(readmeProblems(broken, string(makefile)), "\n")
	for _, want := range []string{
		`"portico frobnicate"`, `-no-such-flag`, `make no-such-target`, `"portico roles frob"`,
		`"emulator-accounts" is missing`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("a README with a wrong %s passed the check; problems found:\n%s", want, got)
		}
	}
}

// readmeProblems lists what in readme does not match the binary or makefile.
func readmeProblems(readme, makefile string) []string {
	var problems []string
	fences := regexp.MustCompile("(?s)```[^\n]*\n(.*?)```")

	// The Commands block: the first fenced block after "## Commands".
	_, after, ok := strings.Cut(readme, "\n## Commands\n")
	m := fences.FindStringSubmatch(after)
	if !ok || m == nil {
		return []string{"README: no fenced block under ## Commands"}
	}
	listed := map[string]bool{}
	for _, entry := range commandEntries(m[1]) {
		words, help, err := knownCommand(entry.words)
		if err != nil {
			problems = append(problems, fmt.Sprintf("README Commands: %q: %v", "portico "+strings.Join(entry.words, " "), err))
			continue
		}
		listed[strings.Join(words, " ")] = true
		for _, f := range entry.flags {
			if !regexp.MustCompile(`(?m)^\s+-` + regexp.QuoteMeta(f) + `(\s|$)`).MatchString(help) {
				problems = append(problems, fmt.Sprintf("README Commands: %q shows flag -%s, which it does not take", "portico "+strings.Join(words, " "), f))
			}
		}
	}
	for _, c := range usageCommands() {
		if !listed[c] {
			problems = append(problems, fmt.Sprintf("README Commands: %q is missing (portico help lists it)", c))
		}
	}

	// Every other code block and every code span, anywhere in the README.
	var code []string
	for _, b := range fences.FindAllStringSubmatch(readme, -1) {
		if b[1] != m[1] {
			code = append(code, b[1])
		}
	}
	for _, s := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(fences.ReplaceAllString(readme, ""), -1) {
		code = append(code, s[1])
	}
	commands := regexp.MustCompile("(?:^|[\\s/`(])portico[ \t]+([a-z][a-z-]*)(?:[ \t]+([a-z][a-z-]*))?")
	targets := map[string]bool{}
	for _, t := range regexp.MustCompile(`(?m)^([a-z0-9][a-z0-9-]*)\s*:(?:[^=]|$)`).FindAllStringSubmatch(makefile, -1) {
		targets[t[1]] = true
	}
	makes := regexp.MustCompile("(?:^|[\\s`(])make[ \t]+([a-z0-9][a-z0-9-]*)")
	for _, c := range code {
		for _, m := range commands.FindAllStringSubmatch(c, -1) {
			words := []string{m[1]}
			if m[2] != "" {
				words = append(words, m[2])
			}
			if _, _, err := knownCommand(words); err != nil {
				problems = append(problems, fmt.Sprintf("README: %q: %v", "portico "+strings.Join(words, " "), err))
			}
		}
		for _, m := range makes.FindAllStringSubmatch(c, -1) {
			if !targets[m[1]] {
				problems = append(problems, fmt.Sprintf("README: make %s: no such target in the Makefile", m[1]))
			}
		}
	}
	return problems
}

type commandEntry struct {
	words []string // the command's words after "portico": "roles", "import"
	flags []string // the flags it shows in brackets, without their dash
}

// commandEntries reads the Commands block: an entry is a line starting
// "portico " and the indented lines after it.
func commandEntries(block string) []commandEntry {
	var entries []commandEntry
	word := regexp.MustCompile(`^[a-z][a-z-]*$`)
	bracketed := regexp.MustCompile(`\[-([a-z][a-z-]*)`)
	gap := regexp.MustCompile(`\s{2,}`)
	for _, line := range strings.Split(block, "\n") {
		if rest, ok := strings.CutPrefix(line, "portico "); ok {
			spec, _, _ := strings.Cut(gap.ReplaceAllString(strings.TrimSpace(rest), "\x00"), "\x00")
			var e commandEntry
			for _, w := range strings.Fields(spec) {
				if !word.MatchString(w) {
					break
				}
				e.words = append(e.words, w)
			}
			entries = append(entries, e)
		} else if len(entries) == 0 || strings.TrimSpace(line) == "" {
			continue
		}
		e := &entries[len(entries)-1]
		for _, f := range bracketed.FindAllStringSubmatch(line, -1) {
			e.flags = append(e.flags, f[1])
		}
	}
	return entries
}

// knownCommand asks run for the -h of words, or of its first word alone,
// and answers the words that name the command with its flags' help. A
// command run does not know is an error.
func knownCommand(words []string) ([]string, string, error) {
	var err error
	for n := 1; n <= len(words); n++ {
		var out strings.Builder
		if err = run(context.Background(), append(slices.Clone(words[:n]), "-h"), func(string) string { return "" }, &out); err == nil {
			return words[:n], out.String(), nil
		}
	}
	first, _, _ := strings.Cut(err.Error(), "\n")
	return nil, "", fmt.Errorf("not a command the binary knows (%s)", first)
}

// usageCommands lists the commands of portico help, help itself left out.
func usageCommands() []string {
	var commands []string
	_, list, _ := strings.Cut(usage, "Commands:\n")
	entry, word := regexp.MustCompile(`^  [a-z]`), regexp.MustCompile(`^[a-z][a-z-]*$`)
	for _, line := range strings.Split(list, "\n") {
		if !entry.MatchString(line) {
			continue
		}
		var words []string
		for _, w := range strings.Fields(line) {
			if !word.MatchString(w) {
				break
			}
			words = append(words, w)
			if len(words) == 2 || !regexp.MustCompile(`^  `+regexp.QuoteMeta(w)+` [a-z]`).MatchString(line) {
				break
			}
		}
		if c := strings.Join(words, " "); c != "help" {
			commands = append(commands, c)
		}
	}
	return commands
}
