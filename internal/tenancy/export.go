package tenancy

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/portico/portico/internal/portal"
)

// Sink receives the files of a tenant export, one at a time: Create
// opens the file called name (a slash-separated relative path, such as
// records/project.jsonl), which the exporter writes and closes before it
// creates the next. Closing reports whether the file was kept.
type Sink interface {
	Create(name string) (io.WriteCloser, error)
}

// ExportSummary is what an export wrote: rows per file (JSON Lines
// files, by name) and attachments (files of bytes beside them).
type ExportSummary struct {
	Rows  map[string]int64
	Bytes int64 // of the attachments
	Files int   // attachments
	// OpenWrites are the tenant's edits still waiting to be sent to its
	// ERP (the outbox, which is not exported): push them first
	// (`portico sync -once`) when the export is to move the tenant.
	OpenWrites int64
}

// ImportOptions adjust an import. As is the id the tenant gets instead of
// its own (a copy); Hosts, when given, replace the export's host names
// (a copy cannot answer at the original's).
type ImportOptions struct {
	As    portal.TenantID
	Hosts []string
}

// ImportSummary is what an import created: the tenant, and rows per table.
type ImportSummary struct {
	Tenant Tenant
	Rows   map[string]int64
}

// DeleteSummary is what a deletion removed: rows per table (tables with
// none left out).
type DeleteSummary struct {
	Rows map[string]int64
}

// DirSink writes an export's files under a directory that is new or
// empty (NewDirSink).
type DirSink struct{ dir string }

// NewDirSink makes dir (and its parents) for an export; a directory that
// has files already is a CodeInvalid error: an export never mixes with
// another's files.
func NewDirSink(dir string) (*DirSink, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	if len(entries) > 0 {
		return nil, portal.Errorf(portal.CodeInvalid, "%s is not empty: export into a new directory", dir)
	}
	return &DirSink{dir: dir}, nil
}

// Create implements Sink.
func (d *DirSink) Create(name string) (io.WriteCloser, error) {
	if !validName(name) {
		return nil, fmt.Errorf("export: bad file name %q", name)
	}
	p := filepath.Join(d.dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
		return nil, err
	}
	return os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o640)
}

// TarGzSink writes an export as one gzip-compressed tar stream, for the
// operator API. A tar entry's header states its size before its bytes, so
// each file is spooled to a temporary file until it is closed, then copied
// into the stream: the stream starts with the first file, and the disk
// holds one file at a time. Close ends the stream (it does not close w).
type TarGzSink struct {
	gz  *gzip.Writer
	tw  *tar.Writer
	dir string // the temporary files'
	at  time.Time
}

// NewTarGzSink starts a tar.gz stream on w; at is every entry's time.
func NewTarGzSink(w io.Writer, at time.Time) *TarGzSink {
	gz := gzip.NewWriter(w)
	return &TarGzSink{gz: gz, tw: tar.NewWriter(gz), at: at}
}

// Create implements Sink.
func (t *TarGzSink) Create(name string) (io.WriteCloser, error) {
	if !validName(name) {
		return nil, fmt.Errorf("export: bad file name %q", name)
	}
	f, err := os.CreateTemp(t.dir, "portico-export-*")
	if err != nil {
		return nil, err
	}
	return &spooled{File: f, sink: t, name: name}, nil
}

// Close ends the tar and gzip streams.
func (t *TarGzSink) Close() error {
	return errors.Join(t.tw.Close(), t.gz.Close())
}

// spooled is one file of a TarGzSink, on disk until it is closed.
type spooled struct {
	*os.File
	sink *TarGzSink
	name string
}

// Close copies the file into the stream and removes it.
func (s *spooled) Close() error {
	defer os.Remove(s.Name())
	defer s.File.Close()
	size, err := s.Seek(0, io.SeekCurrent)
	if err != nil {
		return err
	}
	if _, err := s.Seek(0, io.SeekStart); err != nil {
		return err
	}
	hdr := &tar.Header{Name: s.name, Mode: 0o640, Size: size, ModTime: s.sink.at, Typeflag: tar.TypeReg, Format: tar.FormatPAX}
	if err := s.sink.tw.WriteHeader(hdr); err != nil {
		return err
	}
	_, err = io.CopyN(s.sink.tw, s.File, size)
	return err
}

// validName is a relative slash path inside the export (fs.ValidPath,
// not the export's root).
func validName(name string) bool {
	return fs.ValidPath(name) && name != "."
}

// ExportFormat names the layout of an export's files; an import refuses
// any other.
const ExportFormat = "portico-tenant-export/1"

// HeaderFile is the export's first file: the tenant itself (Header).
const HeaderFile = "tenant.json"

// Header is tenant.json: the tenant's row, its hosts and its company
// profile. Times are UTC, to the millisecond, as stored.
type Header struct {
	Format string          `json:"format"`
	ID     portal.TenantID `json:"id"`
	Name   string          `json:"name"`
	Hosts  []string        `json:"hosts"`
	// IdentityTenant is "" when it is the id.
	IdentityTenant string     `json:"identityTenant"`
	Suspended      bool       `json:"suspended"`
	SuspendedAt    *time.Time `json:"suspendedAt"`
	CreatedAt      time.Time  `json:"createdAt"`
	BaseCurrency   string     `json:"baseCurrency"`
	// Environment is its badge, "" for the deployment's.
	Environment string `json:"environment"`
	// Company is the company profile's row (the letterhead), null when
	// the tenant has none.
	Company map[string]json.RawMessage `json:"company"`
}

// ReadHeader reads and checks tenant.json of the export in from.
func ReadHeader(from fs.FS) (Header, error) {
	var h Header
	data, err := fs.ReadFile(from, HeaderFile)
	if err != nil {
		return h, portal.Errorf(portal.CodeInvalid, "no %s: that is not a tenant export (portico tenants export writes one)", HeaderFile)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&h); err != nil {
		return h, portal.Errorf(portal.CodeInvalid, "%s is not readable: %v", HeaderFile, err)
	}
	if h.Format != ExportFormat {
		return h, portal.Errorf(portal.CodeInvalid, "%s is of format %q; this portico reads %q", HeaderFile, h.Format, ExportFormat)
	}
	if _, err := ParseID(string(h.ID)); err != nil {
		return h, portal.Errorf(portal.CodeInvalid, "%s: %q is not a tenant ID", HeaderFile, h.ID)
	}
	return h, nil
}
