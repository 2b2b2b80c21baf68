/**
 * The list filter grammar of the record API, and the builder's model of it.
 *
 *   expression := condition ( ("and" | "or") condition )*
 *   condition  := field op value
 *   op         := eq | ne | lt | le | gt | ge | contains | startswith
 *   value      := bare word | "double-quoted text" (\" and \\ escaped); $me for the
 *                 user's own employee record (a reference to an employee)
 *
 * "and" binds tighter than "or" and there are no parentheses, so every expression is a
 * flat sequence of conditions joined by and/or: exactly what the builder's rows are. The
 * builder and the text box are two views of the same thing, and the round trip
 * `serialize(parse(x))` only normalises spacing, case and quoting.
 */
import { OPERATORS, type FieldType, type KindField, type Operator } from './types';

export { OPERATORS, type Operator };
export type Join = 'and' | 'or';

/** One row of the builder: a condition, and how it joins the row before it. */
export interface Clause {
  /** Ignored on the first clause. */
  join: Join;
  field: string;
  op: Operator;
  value: string;
}

/** The operators a field offers: those the server gives it (none when it is not filterable). */
export function operatorsFor(field: KindField | undefined): readonly Operator[] {
  return field?.operators ?? [];
}

/** The fields a list may filter on: those the registry does not mark unfilterable. */
export function filterableFields(fields: readonly KindField[]): KindField[] {
  return fields.filter((f) => f.filterable !== false);
}

const PLAIN_LABELS: Record<Operator, string> = {
  eq: 'is',
  ne: 'is not',
  lt: 'less than',
  le: 'at most',
  gt: 'more than',
  ge: 'at least',
  contains: 'contains',
  startswith: 'starts with',
};

const DATE_LABELS: Partial<Record<Operator, string>> = {
  eq: 'on',
  ne: 'not on',
  lt: 'before',
  le: 'on or before',
  gt: 'after',
  ge: 'on or after',
};

/** How the builder names an operator for a field of `type`. */
export function operatorLabel(op: Operator, type?: FieldType): string {
  return (type === 'date' && DATE_LABELS[op]) || PLAIN_LABELS[op];
}

export function isOperator(value: string): value is Operator {
  return (OPERATORS as readonly string[]).includes(value);
}

/**
 * The value a condition on a reference to an employee compares with to mean the signed-in
 * user's own employee record ("nextapprover eq $me", a kind's `approval.awaiting`): the
 * server puts the record in.
 */
export const ME = '$me';

/** A parse failure, with the 0-based character offset of the offending part. */
export class FilterSyntaxError extends Error {
  readonly position: number;
  constructor(message: string, position: number) {
    super(message);
    this.name = 'FilterSyntaxError';
    this.position = position;
  }
}

interface Token {
  text: string;
  quoted: boolean;
  start: number;
}

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const ch = input[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const start = i;
    if (ch === '"') {
      let text = '';
      i++;
      let closed = false;
      while (i < input.length) {
        const c = input[i]!;
        if (c === '\\' && i + 1 < input.length) {
          text += input[i + 1];
          i += 2;
        } else if (c === '"') {
          closed = true;
          i++;
          break;
        } else {
          text += c;
          i++;
        }
      }
      if (!closed) throw new FilterSyntaxError(`The quote opened at character ${start + 1} is never closed.`, start);
      tokens.push({ text, quoted: true, start });
    } else {
      while (i < input.length && !/\s/.test(input[i]!)) i++;
      tokens.push({ text: input.slice(start, i), quoted: false, start });
    }
  }
  return tokens;
}

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Parses a filter expression into clauses. With `fields`, field names are checked
 * against them. Throws {@link FilterSyntaxError} naming the part that is wrong. An empty
 * or blank expression is no clauses.
 */
export function parseFilter(input: string, fields?: readonly Pick<KindField, 'name'>[]): Clause[] {
  const tokens = tokenize(input);
  const clauses: Clause[] = [];
  let i = 0;
  let join: Join = 'and';
  while (i < tokens.length) {
    const field = tokens[i]!;
    if (field.quoted || !FIELD_NAME.test(field.text)) {
      throw new FilterSyntaxError(`Expected a field name at character ${field.start + 1}, found "${field.text}".`, field.start);
    }
    if (fields && !fields.some((f) => f.name === field.text)) {
      throw new FilterSyntaxError(`Unknown field "${field.text}".`, field.start);
    }
    const op = tokens[i + 1];
    if (!op) throw new FilterSyntaxError(`Missing an operator after "${field.text}".`, input.length);
    const opText = op.text.toLowerCase();
    if (op.quoted || !isOperator(opText)) {
      throw new FilterSyntaxError(`Unknown operator "${op.text}" (use ${OPERATORS.join(', ')}).`, op.start);
    }
    const value = tokens[i + 2];
    if (!value) throw new FilterSyntaxError(`Missing a value after "${field.text} ${op.text}".`, input.length);
    clauses.push({ join, field: field.text, op: opText, value: value.text });
    i += 3;
    const next = tokens[i];
    if (!next) break;
    const nextText = next.text.toLowerCase();
    if (next.quoted || (nextText !== 'and' && nextText !== 'or')) {
      throw new FilterSyntaxError(`Expected "and" or "or" at character ${next.start + 1}, found "${next.text}".`, next.start);
    }
    if (!tokens[i + 1]) throw new FilterSyntaxError(`Missing a condition after "${next.text}".`, input.length);
    join = nextText;
    i++;
  }
  return clauses;
}

/** Writes a value bare when that reads back the same, quoted otherwise. */
export function formatValue(value: string): string {
  const bare = value !== '' && /^[^\s"\\]+$/.test(value) && !/^(and|or)$/i.test(value);
  return bare ? value : `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** The expression for the clauses (the first clause's join is ignored). */
export function serializeFilter(clauses: readonly Clause[]): string {
  return clauses
    .map((c, index) => `${index === 0 ? '' : `${c.join} `}${c.field} ${c.op} ${formatValue(c.value)}`)
    .join(' ');
}

/** The expression re-written canonically, or the input unchanged when it does not parse. */
export function normalizeFilter(input: string): string {
  try {
    return serializeFilter(parseFilter(input));
  } catch {
    return input.trim();
  }
}

/** A builder row's problem, or null when it is complete and plausible. */
export function clauseProblem(clause: Clause, fields: readonly KindField[]): string | null {
  const field = fields.find((f) => f.name === clause.field);
  if (!field) return 'Choose a field.';
  if (!operatorsFor(field).includes(clause.op)) return `"${operatorLabel(clause.op, field.type)}" does not apply to ${field.label}.`;
  const value = clause.value.trim();
  if (value === '') return `Enter a value for ${field.label}.`;
  switch (field.type) {
    case 'money':
    case 'quantity':
    case 'number':
    case 'percent':
      return /^-?\d+(\.\d+)?$/.test(value) ? null : `${field.label} needs a number, like ${field.type === 'percent' ? '75' : '1500 or 12.5'}.`;
    case 'boolean':
      return value === 'true' || value === 'false' ? null : `${field.label} is yes (true) or no (false).`;
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`))
        ? null
        : `${field.label} needs a date as yyyy-mm-dd.`;
    case 'reference':
      return /^\d+$/.test(value) || (value === ME && field.ref === 'employee') ? null : `${field.label} needs a record id (a number).`;
    case 'status':
      return !field.choices || field.choices.some((c) => c.toLowerCase() === value.toLowerCase())
        ? null
        : `${field.label} is one of: ${field.choices.join(', ')}.`;
    default:
      return null;
  }
}

/** A fresh row for `field`, with its type's first operator and a sensible empty value. */
export function newClause(field: KindField | undefined, join: Join = 'and'): Clause {
  if (!field) return { join, field: '', op: 'eq', value: '' };
  const value = field.type === 'status' ? (field.choices?.[0] ?? '') : field.type === 'boolean' ? 'true' : '';
  return { join, field: field.name, op: operatorsFor(field)[0] ?? 'eq', value };
}
