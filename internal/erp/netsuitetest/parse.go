package netsuitetest

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The SuiteQL subset the fake understands (keywords case-insensitive):
//
//	query  := SELECT item {, item} FROM table [WHERE cond] [ORDER BY key {, key}]
//	item   := expr [[AS] alias]
//	expr   := col | BUILTIN.DF(col) | TO_CHAR(col, 'format')
//	key    := col [ASC | DESC]
//	cond   := conj {OR conj};  conj := atom {AND atom};  atom := (cond) | col op literal
//	op     := = | <> | != | > | >= | < | <=
//	literal:= number | -number | 'string' | TO_TIMESTAMP('text', 'format')
//	format := YYYY MM DD HH24 MI SS joined by - / : space T .
//
// Anything else is refused with a parse error, which the handler answers
// with 400, as NetSuite does for a query it cannot run.

// query is a parsed SuiteQL statement. Column names are lower-case.
type query struct {
	items []item
	table string
	where node // nil when there is no WHERE
	order []orderKey
}

type itemFn uint8

const (
	fnCol    itemFn = iota // col: the raw value (a reference's internal id)
	fnDF                   // BUILTIN.DF(col): the display value
	fnToChar               // TO_CHAR(col, format)
)

type item struct {
	fn     itemFn
	col    string
	layout string // fnToChar: the Go layout of the format
	name   string // output column name
}

type orderKey struct {
	col  string
	desc bool
}

// node is a WHERE condition: *boolNode or *cmpNode.
type node interface{ isNode() }

type boolNode struct {
	or   bool // OR of args, else AND
	args []node
}

type cmpNode struct {
	col string
	op  string // = <> > >= < <=
	lit value
}

func (*boolNode) isNode() {}
func (*cmpNode) isNode()  {}

// Limits that keep hostile input cheap: the parser recurses once per
// parenthesis.
const (
	maxQueryLen = 100_000
	maxDepth    = 100
)

type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tNum
	tStr
	tPunct
)

type token struct {
	kind tokKind
	text string // identifiers lower-cased; strings unescaped
	pos  int
}

// lex splits q into tokens.
func lex(q string) ([]token, error) {
	var toks []token
	i := 0
	for i < len(q) {
		c := q[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '_' || isLetter(c):
			j := i + 1
			for j < len(q) && (q[j] == '_' || q[j] == '$' || isLetter(q[j]) || isDigit(q[j])) {
				j++
			}
			toks = append(toks, token{tIdent, strings.ToLower(q[i:j]), i})
			i = j
		case isDigit(c):
			j := i + 1
			for j < len(q) && isDigit(q[j]) {
				j++
			}
			if j+1 < len(q) && q[j] == '.' && isDigit(q[j+1]) {
				j++
				for j < len(q) && isDigit(q[j]) {
					j++
				}
			}
			toks = append(toks, token{tNum, q[i:j], i})
			i = j
		case c == '\'':
			var sb strings.Builder
			j := i + 1
			for {
				if j >= len(q) {
					return nil, fmt.Errorf("unterminated string at %d", i)
				}
				if q[j] == '\'' {
					if j+1 < len(q) && q[j+1] == '\'' {
						sb.WriteByte('\'')
						j += 2
						continue
					}
					break
				}
				sb.WriteByte(q[j])
				j++
			}
			toks = append(toks, token{tStr, sb.String(), i})
			i = j + 1
		default:
			two := ""
			if i+1 < len(q) {
				two = q[i : i+2]
			}
			switch {
			case two == "<>" || two == "!=" || two == ">=" || two == "<=":
				toks = append(toks, token{tPunct, two, i})
				i += 2
			case strings.IndexByte("(),.=<>-", c) >= 0:
				toks = append(toks, token{tPunct, string(c), i})
				i++
			default:
				return nil, fmt.Errorf("unexpected character %q at %d", c, i)
			}
		}
	}
	return append(toks, token{kind: tEOF, pos: len(q)}), nil
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

var keywords = map[string]bool{
	"select": true, "from": true, "where": true, "order": true, "by": true,
	"and": true, "or": true, "as": true, "asc": true, "desc": true,
}

type parser struct {
	toks  []token
	i     int
	depth int
	loc   *time.Location
	exprs int // unnamed expressions so far, for their exprN names
}

// parseQuery parses one statement; date-time literals are read in loc,
// the account time zone.
func parseQuery(q string, loc *time.Location) (*query, error) {
	if len(q) > maxQueryLen {
		return nil, fmt.Errorf("the query is longer than %d characters", maxQueryLen)
	}
	toks, err := lex(q)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks, loc: loc}
	return p.query()
}

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) errf(format string, args ...any) error {
	t := p.peek()
	at := "end of query"
	if t.kind != tEOF {
		at = fmt.Sprintf("%q at %d", t.text, t.pos)
	}
	return fmt.Errorf(format+" (near %s)", append(args, at)...)
}

// keyword consumes the keyword kw if it is next.
func (p *parser) keyword(kw string) bool {
	if t := p.peek(); t.kind == tIdent && t.text == kw {
		p.i++
		return true
	}
	return false
}

func (p *parser) punct(s string) bool {
	if p.isPunct(s) {
		p.i++
		return true
	}
	return false
}

func (p *parser) isPunct(s string) bool {
	t := p.peek()
	return t.kind == tPunct && t.text == s
}

func (p *parser) expectPunct(s string) error {
	if !p.punct(s) {
		return p.errf("expected %q", s)
	}
	return nil
}

// name reads an identifier that is not a keyword.
func (p *parser) name(what string) (string, error) {
	t := p.peek()
	if t.kind != tIdent || keywords[t.text] {
		return "", p.errf("expected %s", what)
	}
	p.i++
	return t.text, nil
}

func (p *parser) query() (*query, error) {
	if !p.keyword("select") {
		return nil, p.errf("expected SELECT")
	}
	q := &query{}
	for {
		it, err := p.item()
		if err != nil {
			return nil, err
		}
		q.items = append(q.items, it)
		if !p.punct(",") {
			break
		}
	}
	if !p.keyword("from") {
		return nil, p.errf("expected FROM")
	}
	table, err := p.name("a table name")
	if err != nil {
		return nil, err
	}
	q.table = table
	if p.keyword("where") {
		if q.where, err = p.cond(); err != nil {
			return nil, err
		}
	}
	if p.keyword("order") {
		if !p.keyword("by") {
			return nil, p.errf("expected BY")
		}
		for {
			col, err := p.name("a column")
			if err != nil {
				return nil, err
			}
			k := orderKey{col: col}
			if p.keyword("desc") {
				k.desc = true
			} else {
				p.keyword("asc")
			}
			q.order = append(q.order, k)
			if !p.punct(",") {
				break
			}
		}
	}
	if p.peek().kind != tEOF {
		return nil, p.errf("unexpected input")
	}
	return q, nil
}

func (p *parser) item() (item, error) {
	head, err := p.name("a column or function")
	if err != nil {
		return item{}, err
	}
	var it item
	switch {
	case head == "builtin" && p.punct("."):
		if fn, err := p.name("DF"); err != nil || fn != "df" {
			return item{}, p.errf("only BUILTIN.DF is supported")
		}
		col, err := p.oneArg()
		if err != nil {
			return item{}, err
		}
		it = item{fn: fnDF, col: col}
	case head == "to_char" && p.punct("("):
		col, err := p.name("a column")
		if err != nil {
			return item{}, err
		}
		if err := p.expectPunct(","); err != nil {
			return item{}, err
		}
		layout, err := p.format()
		if err != nil {
			return item{}, err
		}
		if err := p.expectPunct(")"); err != nil {
			return item{}, err
		}
		it = item{fn: fnToChar, col: col, layout: layout}
	case p.isPunct("(") || p.isPunct("."):
		return item{}, p.errf("unsupported expression %s", head)
	default:
		it = item{fn: fnCol, col: head, name: head}
	}
	if p.keyword("as") || (p.peek().kind == tIdent && !keywords[p.peek().text]) {
		alias, err := p.name("an alias")
		if err != nil {
			return item{}, err
		}
		it.name = alias
	}
	if it.name == "" {
		p.exprs++
		it.name = "expr" + strconv.Itoa(p.exprs)
	}
	return it, nil
}

// oneArg reads "(col)".
func (p *parser) oneArg() (string, error) {
	if err := p.expectPunct("("); err != nil {
		return "", err
	}
	col, err := p.name("a column")
	if err != nil {
		return "", err
	}
	return col, p.expectPunct(")")
}

// format reads an Oracle date format string and returns its Go layout.
func (p *parser) format() (string, error) {
	t := p.next()
	if t.kind != tStr {
		return "", p.errf("expected a date format string")
	}
	return goLayout(t.text)
}

// goLayout translates the date format elements the fake supports.
func goLayout(f string) (string, error) {
	var b strings.Builder
	u := strings.ToUpper(f)
	for i := 0; i < len(u); {
		switch {
		case strings.HasPrefix(u[i:], "YYYY"):
			b.WriteString("2006")
			i += 4
		case strings.HasPrefix(u[i:], "HH24"):
			b.WriteString("15")
			i += 4
		case strings.HasPrefix(u[i:], "MM"):
			b.WriteString("01")
			i += 2
		case strings.HasPrefix(u[i:], "DD"):
			b.WriteString("02")
			i += 2
		case strings.HasPrefix(u[i:], "MI"):
			b.WriteString("04")
			i += 2
		case strings.HasPrefix(u[i:], "SS"):
			b.WriteString("05")
			i += 2
		case strings.IndexByte("-/: T.", u[i]) >= 0:
			b.WriteByte(u[i])
			i++
		default:
			return "", fmt.Errorf("unsupported date format %q", f)
		}
	}
	if b.Len() == 0 {
		return "", fmt.Errorf("empty date format")
	}
	return b.String(), nil
}

func (p *parser) cond() (node, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		return nil, p.errf("conditions nested too deeply")
	}
	first, err := p.conj()
	if err != nil {
		return nil, err
	}
	args := []node{first}
	for p.keyword("or") {
		n, err := p.conj()
		if err != nil {
			return nil, err
		}
		args = append(args, n)
	}
	if len(args) == 1 {
		return first, nil
	}
	return &boolNode{or: true, args: args}, nil
}

func (p *parser) conj() (node, error) {
	first, err := p.atom()
	if err != nil {
		return nil, err
	}
	args := []node{first}
	for p.keyword("and") {
		n, err := p.atom()
		if err != nil {
			return nil, err
		}
		args = append(args, n)
	}
	if len(args) == 1 {
		return first, nil
	}
	return &boolNode{args: args}, nil
}

func (p *parser) atom() (node, error) {
	if p.punct("(") {
		n, err := p.cond()
		if err != nil {
			return nil, err
		}
		return n, p.expectPunct(")")
	}
	col, err := p.name("a column")
	if err != nil {
		return nil, err
	}
	t := p.peek()
	op := t.text
	switch {
	case t.kind != tPunct:
		return nil, p.errf("expected a comparison operator")
	case op == "!=":
		op = "<>"
	case op != "=" && op != "<>" && op != ">" && op != ">=" && op != "<" && op != "<=":
		return nil, p.errf("expected a comparison operator")
	}
	p.i++
	lit, err := p.literal()
	if err != nil {
		return nil, err
	}
	return &cmpNode{col: col, op: op, lit: lit}, nil
}

func (p *parser) literal() (value, error) {
	neg := p.punct("-")
	t := p.peek()
	if neg && t.kind != tNum {
		return value{}, p.errf("expected a number")
	}
	switch {
	case t.kind == tNum:
		p.i++
		f, err := strconv.ParseFloat(t.text, 64)
		if err != nil {
			return value{}, p.errf("bad number %q", t.text)
		}
		if neg {
			f = -f
		}
		return value{k: vNum, f: f}, nil
	case t.kind == tStr:
		p.i++
		return value{k: vStr, s: t.text}, nil
	case t.kind == tIdent && t.text == "to_timestamp":
		p.i++
		if err := p.expectPunct("("); err != nil {
			return value{}, err
		}
		s := p.next()
		if s.kind != tStr {
			return value{}, p.errf("expected a date-time string")
		}
		if err := p.expectPunct(","); err != nil {
			return value{}, err
		}
		layout, err := p.format()
		if err != nil {
			return value{}, err
		}
		if err := p.expectPunct(")"); err != nil {
			return value{}, err
		}
		ts, err := time.ParseInLocation(layout, s.text, p.loc)
		if err != nil {
			return value{}, fmt.Errorf("TO_TIMESTAMP(%q): does not match its format", s.text)
		}
		return value{k: vTime, t: ts.Unix()}, nil
	}
	return value{}, p.errf("expected a literal")
}
