package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/portico/portico/internal/config"
	"github.com/portico/portico/internal/sqlstore"
)

// postgresBackupRecipe is what `portico backup` and `portico restore`
// print on PostgreSQL, whose own tools do both (see docs/operations.md,
// "Backups and restores").
const postgresBackupRecipe = `On PostgreSQL, back up and restore with the server's tools.

A consistent copy while the instances run (one snapshot; writes go on):
  pg_dump --format=custom --no-owner --file=portico-$(date -u +%Y%m%dT%H%M).dump "$PORTICO_DATABASE_URL"

Restore it into a new, empty database, then point PORTICO_DATABASE_URL at it
(the first start checks the schema version and migrates an older one):
  createdb portico_restored
  pg_restore --no-owner --exit-on-error --single-transaction --dbname=postgres://USER@HOST/portico_restored portico-....dump

Point-in-time recovery (to any moment, not just the last dump) needs the
server's continuous archiving: a base backup (pg_basebackup) plus archived
WAL (archive_mode, archive_command), or a managed service's PITR.
`

// backup writes a consistent copy of the SQLite database into the new file
// args[0], while instances may be serving it.
func backup(ctx context.Context, cfg config.Config, args []string, stdout io.Writer) error {
	if len(args) != 1 {
		return errors.New("backup: give exactly one FILE, the backup to write")
	}
	if sqlstore.IsPostgresURL(cfg.DatabaseURL) {
		io.WriteString(stdout, postgresBackupRecipe)
		return errors.New("backup: not taken; on PostgreSQL use pg_dump as above")
	}
	// Opened without migrating: a newer binary must not upgrade the
	// database under the instances serving it.
	store, err := sqlstore.OpenExisting(ctx, cfg.DatabaseURL, cfg.DataDir)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer store.Close()
	start := time.Now()
	info, err := store.Backup(ctx, args[0])
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "backup written to %s: %s, schema version %d, in %s\n",
		info.Path, size(info.Bytes), info.Schema, time.Since(start).Round(time.Millisecond))
	return nil
}

// restore puts the backup file args[0] in place as the configured SQLite
// database, which must not exist yet; run then opens it as every command
// does (migrating a backup from an older release).
func restore(ctx context.Context, cfg config.Config, args []string, stdout io.Writer) error {
	if len(args) != 1 {
		return errors.New("restore: give exactly one FILE, the backup to restore")
	}
	if sqlstore.IsPostgresURL(cfg.DatabaseURL) {
		io.WriteString(stdout, postgresBackupRecipe)
		return errors.New("restore: nothing restored; on PostgreSQL use pg_restore as above")
	}
	start := time.Now()
	info, err := sqlstore.Restore(ctx, cfg.DatabaseURL, cfg.DataDir, args[0])
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "restored %s into %s: %s, schema version %d, %d tenants, %d records; integrity check ok; in %s\n",
		args[0], info.Path, size(info.Bytes), info.Schema, info.Tenants, info.Records, time.Since(start).Round(time.Millisecond))
	return nil
}

// size writes a number of bytes for people.
func size(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
