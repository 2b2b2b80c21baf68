/**
 * A record's fields below its header (the bare view page). What shows, and under which
 * label, comes from the kind registry, never from the ERP's field ids:
 *
 * - the header shows the title, number, status and key facts (HEADER_COLUMNS); nothing
 *   here repeats them;
 * - every other field the registry declares shows in a group by what it holds —
 *   "Details", "Amounts", "Contact" — in the registry's order, formatted by its type (money
 *   in the record's currency, else the field's base currency);
 * - fields of the record's document the registry does not declare stay out of the way
 *   under a closed "Other NetSuite fields" disclosure, with the server's readable label
 *   (they are the account's, and staff sometimes need one, so they are not dropped);
 * - related records show only when no field above already links them.
 */
import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { BadgeList, type BadgeItem } from '../../components/ui/BadgeList';
import { DeclaredValue, FieldValue } from './FieldValue';
import { currencyOf } from './format';
import { baseCurrency, fieldOnColumn, kindByName } from './kinds';
import { viewPath } from './links';
import type { CellValue, FieldType, Kind, KindField, RecordDetail, RecordField } from './types';
import classes from './FieldGroups.module.css';

/** The promoted columns the header shows as key facts, in its order. */
export const KEY_FACT_COLUMNS = ['parent_id', 'project_id', 'amount', 'occurred_on'] as const;

/** Columns the header shows itself: the title (heading), number (breadcrumb) and status (badge). */
const HEADLINE_COLUMNS = ['title', 'code', 'status'] as const;

/** The record's values by field name, from every group of its answer. */
export function recordValues(record: RecordDetail): Map<string, RecordField> {
  const values = new Map<string, RecordField>();
  for (const group of record.groups) for (const field of group.fields) if (!values.has(field.name)) values.set(field.name, field);
  return values;
}

/** A declared field with the record's value of it. */
export interface FieldEntry {
  field: KindField;
  value: CellValue;
}

function hasValue(value: CellValue): boolean {
  return value !== null && value !== undefined && value !== '';
}

/** The header's key facts: the kind's client/vendor, project, amount and date fields that have a value. */
export function keyFacts(kind: Kind, record: RecordDetail): FieldEntry[] {
  const values = recordValues(record);
  return KEY_FACT_COLUMNS.flatMap((column) => {
    const field = fieldOnColumn(kind, column);
    const value = field ? values.get(field.name)?.value : undefined;
    return field && hasValue(value) ? [{ field, value }] : [];
  });
}

/** The names of the fields the header shows (headline and key facts), which the groups leave out. */
export function headerFieldNames(kind: Kind): Set<string> {
  const names = new Set<string>();
  for (const column of [...HEADLINE_COLUMNS, ...KEY_FACT_COLUMNS]) {
    const field = fieldOnColumn(kind, column);
    if (field) names.add(field.name);
  }
  return names;
}

/** The groups of the declared fields, by what they hold; a type not listed reads as a detail. */
const GROUPS: readonly { label: string; types: readonly FieldType[] }[] = [
  { label: 'Details', types: ['text', 'status', 'reference', 'date', 'boolean'] },
  { label: 'Amounts', types: ['money', 'quantity', 'percent', 'number'] },
  { label: 'Contact', types: ['email', 'phone', 'url'] },
];

export interface FieldSections {
  groups: { label: string; entries: FieldEntry[] }[];
  /** Values of the record's document that no field of the kind declares. */
  other: RecordField[];
}

/** The record's fields below the header: declared ones grouped, undeclared ones apart. */
export function fieldSections(kind: Kind, record: RecordDetail): FieldSections {
  const values = recordValues(record);
  const inHeader = headerFieldNames(kind);
  const declared = new Set(kind.fields.map((f) => f.name));
  const groupOf = (type: FieldType) => GROUPS.find((g) => g.types.includes(type)) ?? GROUPS[0]!;
  const groups = GROUPS.map((g) => ({ label: g.label, entries: [] as FieldEntry[] }));
  for (const field of kind.fields) {
    if (inHeader.has(field.name)) continue;
    groups[GROUPS.indexOf(groupOf(field.type))]!.entries.push({ field, value: values.get(field.name)?.value ?? null });
  }
  const other = [...values.values()].filter((f) => !declared.has(f.name) && hasValue(f.value));
  return { groups: groups.filter((g) => g.entries.length > 0), other };
}

/** The record's related records that no reference field of the kind already links. */
export function unlinkedRelated(kind: Kind, record: RecordDetail): RecordDetail['related'] {
  const values = recordValues(record);
  const linked = new Set<string>();
  for (const field of kind.fields) {
    const value = values.get(field.name)?.value;
    if (field.type === 'reference' && field.ref && value && typeof value === 'object') linked.add(`${field.ref}:${value.id}`);
  }
  return (record.related ?? []).filter((r) => !linked.has(`${r.type}:${r.id}`));
}

function FieldList({ children }: { children: ReactNode }) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="lg" verticalSpacing="sm" component="dl" m={0}>
      {children}
    </SimpleGrid>
  );
}

function FieldItem({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={classes.item}>
      <Text component="dt" className={classes.label}>
        {label}
      </Text>
      <Text component="dd" m={0} fw={500} className={classes.value}>
        {children}
      </Text>
    </div>
  );
}

/** The record's fields in their groups, the undeclared ones, and its related records. */
export function FieldGroups({ kind, kinds, record }: { kind: Kind; kinds: Kind[]; record: RecordDetail }) {
  const { groups, other } = fieldSections(kind, record);
  const related = unlinkedRelated(kind, record);
  return (
    <Stack gap="md" data-testid="field-groups">
      {groups.map((group, index) => (
        <Paper key={group.label} withBorder p="md" radius="md" component="section" aria-labelledby={`group-${index}`}>
          <Title order={2} size="h4" id={`group-${index}`} mb="sm">
            {group.label}
          </Title>
          <FieldList>
            {group.entries.map(({ field, value }) => (
              <FieldItem key={field.name} label={field.label}>
                <DeclaredValue value={value} field={field} kinds={kinds} recordCurrency={record.currency} />
              </FieldItem>
            ))}
          </FieldList>
        </Paper>
      ))}
      {other.length > 0 && (
        <Paper withBorder radius="md" component="details" className={classes.other} data-testid="other-fields">
          <summary className={classes.summary}>
            Other NetSuite fields <Text span c="dimmed" size="sm">({other.length})</Text>
          </summary>
          <div className={classes.otherBody}>
            <FieldList>
              {other.map((field) => (
                <FieldItem key={field.name} label={field.label}>
                  <FieldValue value={field.value} type={field.type} currency={field.type === 'money' ? currencyOf(record.currency, baseCurrency([kind])) : undefined} />
                </FieldItem>
              ))}
            </FieldList>
          </div>
        </Paper>
      )}
      {related.length > 0 && (
        <Paper withBorder p="md" radius="md" component="section" aria-labelledby="related-records">
          <Title order={2} size="h4" id="related-records" mb="sm">
            Related records
          </Title>
          <BadgeList
            aria-label="Related records"
            badges={related.map((r): BadgeItem => {
              const target = kindByName(kinds, r.type);
              const key = `${r.type}:${r.id}`;
              return target ? { key, text: `${target.label}: ${r.name}`, color: 'indigo', to: viewPath(target, r.id) } : { key, text: r.name, color: 'gray' };
            })}
          />
        </Paper>
      )}
    </Stack>
  );
}
