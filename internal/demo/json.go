package demo

import (
	"strconv"

	"github.com/portico/portico/internal/jsonenc"
)

// doc appends one JSON document by hand. It is the hot loop of the
// generator: building the document through encoding/json's reflection
// cost several times more than everything else per record, and the shapes
// here are fixed and few. Values are written exactly as NetSuite's REST
// record API gives them: ids as strings, references and list values as
// {"id", "refName"}, money and quantities as numbers, dates as
// "yyyy-mm-dd", timestamps as RFC 3339 UTC.
type doc struct {
	b []byte
	// first reports, per open object or array, whether nothing has been
	// written into it yet (so no comma is needed).
	first []bool
}

func (d *doc) reset() {
	d.b = d.b[:0]
	d.first = d.first[:0]
}

// sep writes the comma that separates this member from the previous one.
func (d *doc) sep() {
	n := len(d.first) - 1
	if n < 0 {
		return
	}
	if d.first[n] {
		d.first[n] = false
		return
	}
	d.b = append(d.b, ',')
}

func (d *doc) key(k string) {
	d.sep()
	d.b = jsonenc.AppendString(d.b, k)
	d.b = append(d.b, ':')
}

// open starts an object; with a key inside an object, or as an array
// element with key "".
func (d *doc) open(k string) { d.begin(k, '{') }

// array starts an array member.
func (d *doc) array(k string) { d.begin(k, '[') }

func (d *doc) begin(k string, c byte) {
	if k != "" {
		d.key(k)
	} else {
		d.sep()
	}
	d.b = append(d.b, c)
	d.first = append(d.first, true)
}

// closeObj ends the innermost object; closeArr the innermost array.
func (d *doc) closeObj() { d.end('}') }
func (d *doc) closeArr() { d.end(']') }

func (d *doc) end(c byte) {
	d.first = d.first[:len(d.first)-1]
	d.b = append(d.b, c)
}

func (d *doc) str(k, v string) {
	d.key(k)
	d.b = jsonenc.AppendString(d.b, v)
}

func (d *doc) bytes(k string, v []byte) {
	d.key(k)
	d.b = jsonenc.AppendString(d.b, v)
}

func (d *doc) int(k string, v int64) {
	d.key(k)
	d.b = strconv.AppendInt(d.b, v, 10)
}

func (d *doc) bool(k string, v bool) {
	d.key(k)
	d.b = strconv.AppendBool(d.b, v)
}

// money writes hundredths as a decimal number with two places (1234.5 is
// written 1234.50), as NetSuite does for currency fields.
func (d *doc) money(k string, hundredths int64) {
	d.key(k)
	d.b = appendHundredths(d.b, hundredths)
}

// ref writes a reference to another record: {"id": "42", "refName": "..."}.
func (d *doc) ref(k string, id int64, name []byte) {
	d.key(k)
	d.b = append(d.b, `{"id":"`...)
	d.b = strconv.AppendInt(d.b, id, 10)
	d.b = append(d.b, `","refName":`...)
	d.b = jsonenc.AppendString(d.b, name)
	d.b = append(d.b, '}')
}

// sel writes a list (select) value: {"id": "3", "refName": "Active"}.
func (d *doc) sel(k string, id int, name string) {
	d.key(k)
	d.b = append(d.b, `{"id":"`...)
	d.b = strconv.AppendInt(d.b, int64(id), 10)
	d.b = append(d.b, `","refName":`...)
	d.b = jsonenc.AppendString(d.b, name)
	d.b = append(d.b, '}')
}

func appendHundredths(b []byte, h int64) []byte {
	if h < 0 {
		b = append(b, '-')
		h = -h
	}
	b = strconv.AppendInt(b, h/100, 10)
	c := h % 100
	return append(b, '.', byte('0'+c/10), byte('0'+c%10))
}
