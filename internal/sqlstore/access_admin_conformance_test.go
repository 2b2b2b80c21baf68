package sqlstore

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/portal"
)

// Two administrators saving at once: one wins, the other is told its
// version is stale, and nothing is lost.
func TestConformanceReplaceAccessNeverLosesAnUpdate(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		if err := ten.ImportAccess(ctx, testAccess); err != nil {
			t.Fatal(err)
		}
		cur, err := ten.ExportAccess(ctx)
		if err != nil {
			t.Fatal(err)
		}
		v0 := access.Version(cur)

		// Writers holding the same version: exactly one succeeds.
		const n = 6
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range n {
			wg.Go(func() {
				f := cur
				f.Users = append([]access.FileUser{}, cur.Users...)
				f.Users[0].FullName = fmt.Sprintf("Ada %d", i)
				_, _, errs[i] = ten.ReplaceAccess(ctx, f, v0)
			})
		}
		wg.Wait()
		won := -1
		for i, err := range errs {
			switch {
			case err == nil && won >= 0:
				t.Fatalf("writers %d and %d both saved over version %s", won, i, v0)
			case err == nil:
				won = i
			case portal.ErrorCode(err) != portal.CodeStale:
				t.Fatalf("writer %d: %v", i, err)
			}
		}
		if won < 0 {
			t.Fatal("no writer saved")
		}
		u, _ := ten.UserByID(ctx, 1)
		if u.FullName != fmt.Sprintf("Ada %d", won) {
			t.Errorf("saved %q, the winner was %d", u.FullName, won)
		}

		// Writers that reload on a stale version: every one's change is
		// kept (each adds its own users).
		const writers, each = 4, 3
		var mu sync.Mutex
		stale := 0
		for w := range writers {
			wg.Go(func() {
				for j := range each {
					for {
						f, err := ten.ExportAccess(ctx)
						if err != nil {
							t.Error(err)
							return
						}
						v := access.Version(f)
						id := int64(100 + w*10 + j)
						f.Users = append(f.Users, access.FileUser{ID: id, Email: fmt.Sprintf("u%d@acme.test", id), FullName: "U", Roles: []int64{10}})
						_, after, err := ten.ReplaceAccess(ctx, f, v)
						if portal.ErrorCode(err) == portal.CodeStale {
							mu.Lock()
							if stale++; stale > 1000 {
								mu.Unlock()
								t.Error("stale forever")
								return
							}
							mu.Unlock()
							continue
						}
						if err != nil {
							t.Error(err)
							return
						}
						if len(after.Users) < len(f.Users) {
							t.Errorf("after has %d users, sent %d", len(after.Users), len(f.Users))
						}
						break
					}
				}
			})
		}
		wg.Wait()
		final, err := ten.ExportAccess(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := len(final.Users), len(cur.Users)+writers*each; got != want {
			t.Errorf("%d users after %d adds by %d writers, want %d (a lost update)", got, writers*each, writers, want)
		}
		t.Logf("%d stale answers among %d writers", stale, writers)

		// A stale version changes nothing.
		f := final
		f.Users = append([]access.FileUser{}, final.Users...)
		f.Users[0].Disabled = true
		if _, _, err := ten.ReplaceAccess(ctx, f, v0); portal.ErrorCode(err) != portal.CodeStale {
			t.Fatalf("stale version: %v", err)
		}
		if again, _ := ten.ExportAccess(ctx); access.Version(again) != access.Version(final) {
			t.Error("a stale replace changed the setup")
		}
	})
}
