package httpapi

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/records"
)

// guarded embeds the tenant store, so a read of records added to the store
// would pass through unguarded unless guarded declares it too. Every
// method of TenantStore that names records (a list, summary, tally or
// grouping query, a write, a note or file, or a kind and an id) must be
// guarded's own, or be exempt here with the reason.
func TestGuardedDeclaresEveryReadOfRecords(t *testing.T) {
	exempt := map[string]string{
		"ShortlistRemove": "removes from the caller's own shelf; names no record back",
		"VisibleLists":    "saved lists of a kind, not its records (ListActor decides who sees them)",
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	declared := map[string]bool{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv != nil {
				if id, ok := fn.Recv.List[0].Type.(*ast.Ident); ok && id.Name == "guarded" {
					declared[fn.Name.Name] = true
				}
			}
		}
	}
	named := []reflect.Type{reflect.TypeFor[records.ListQuery](), reflect.TypeFor[records.SummaryQuery](), reflect.TypeFor[records.TallyQuery](),
		reflect.TypeFor[records.GroupQuery](), reflect.TypeFor[records.Write](), reflect.TypeFor[records.NoteWrite](), reflect.TypeFor[records.FileWrite](), reflect.TypeFor[access.AuditFilter]()}
	store := reflect.TypeFor[TenantStore]()
	checked := 0
	for i := range store.NumMethod() {
		m := store.Method(i)
		namesRecords := m.Name == "SearchCandidates" || m.Name == "Shortlist"
		for p := range m.Type.NumIn() {
			in := m.Type.In(p)
			if slices.Contains(named, in) || in.Kind() == reflect.String && p+1 < m.Type.NumIn() && m.Type.In(p+1).Kind() == reflect.Int64 {
				namesRecords = true
			}
		}
		if !namesRecords {
			continue
		}
		checked++
		if _, ok := exempt[m.Name]; !ok && !declared[m.Name] {
			t.Errorf("TenantStore.%s names records but guarded does not declare it: it would read or write them past the Guard", m.Name)
		}
	}
	if checked < 15 {
		t.Errorf("only %d methods of TenantStore name records: the check lost its way", checked)
	}
}
