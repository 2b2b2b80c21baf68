package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/portico/portico/internal/erp/netsuite"
	"github.com/portico/portico/internal/erp/netsuitetest"
)

func TestRunServesSeededAccount(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-tba", "ck:cs:tid:ts", "-per-kind", "20", "-account", "123456_SB1"}, pw, io.Discard)
		pw.Close()
	}()
	base, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	base = strings.TrimSpace(base)
	req, _ := http.NewRequest("POST", base+netsuitetest.SuiteQLPath+"?limit=5",
		strings.NewReader(`{"q": "SELECT id FROM job ORDER BY id"}`))
	req.Header.Set("Prefer", "transient")
	auth := netsuite.TBA{Account: "123456_SB1", ConsumerKey: "ck", ConsumerSecret: "cs", TokenID: "tid", TokenSecret: "ts"}
	if err := auth.Authorize(ctx, req); err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"totalResults":20`) {
		t.Errorf("query: %d %s", resp.StatusCode, body)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("run: %v", err)
	}
}

func TestRunRefusesBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{}, {"-tba", "a:b:c"}, {"-tba", "a::c:d"}, {"-m2m", "client:cert"}, {"-m2m", "client:cert:/nonexistent.pem"},
		{"-tba", "a:b:c:d", "extra"}, {"-tba", "a:b:c:d", "-mapping", "/nonexistent.yaml"},
	} {
		if err := run(t.Context(), args, io.Discard, io.Discard); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}
