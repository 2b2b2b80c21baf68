package identity

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// EmulatorAccount is an email + password account to create in the Auth
// Emulator.
type EmulatorAccount struct {
	Email, Password, DisplayName string
}

// SeedEmulator creates accounts in a tenant of the Firebase Auth Emulator
// at host, skipping those that exist. It refuses anything but a demo-
// project, so it can never touch a real one.
func SeedEmulator(ctx context.Context, host, projectID, tenant string, accounts []EmulatorAccount) (created int, err error) {
	if !strings.HasPrefix(projectID, "demo-") {
		return 0, fmt.Errorf("identity: emulator seeding needs a demo- project, not %q", projectID)
	}
	client := &http.Client{Timeout: 10 * time.Second}
	url := fmt.Sprintf("http://%s/identitytoolkit.googleapis.com/v1/projects/%s/tenants/%s/accounts", host, projectID, tenant)
	for _, a := range accounts {
		body, _ := json.Marshal(map[string]any{
			"email": a.Email, "password": a.Password, "displayName": a.DisplayName, "emailVerified": true,
		})
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			return created, err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer owner") // the emulator's admin credential
		resp, err := client.Do(req)
		if err != nil {
			return created, fmt.Errorf("auth emulator at %s: %w", host, err)
		}
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		resp.Body.Close()
		switch {
		case resp.StatusCode == http.StatusOK:
			created++
		case bytes.Contains(msg, []byte("EMAIL_EXISTS")), bytes.Contains(msg, []byte("DUPLICATE_EMAIL")):
		default:
			return created, fmt.Errorf("auth emulator: create %s: %s: %s", a.Email, resp.Status, msg)
		}
	}
	return created, nil
}
