package demo

import (
	_ "embed"

	"github.com/portico/portico/internal/access"
)

//go:embed access.yaml
var accessYAML []byte

// Password is the demo accounts' password (emulator only).
const Password = "portico-demo"

// Access returns the demo tenant's access setup (layouts, roles, users),
// the same readable file operators import with `portico roles import`.
func Access() access.File {
	f, err := access.ParseFile(accessYAML)
	if err != nil {
		panic(err) // the embedded file is checked by TestDemoAccessFile
	}
	return f
}
