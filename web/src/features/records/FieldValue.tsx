/**
 * One value of a record field as an element, by its type (the text comes from format.ts):
 * a reference links to the record by its name; email, phone and web addresses are
 * mailto:, tel: and http(s) links; a status is a badge; no value is a dimmed dash.
 */
import { Anchor, Badge, Text } from '@mantine/core';
import { Link } from 'react-router';
import { declaredCurrency, formatValue, isRef, mailtoHref, safeWebUrl, telHref } from './format';
import { kindByName } from './kinds';
import { viewPath } from './links';
import { statusColor } from './status';
import type { CellValue, FieldType, Kind, KindField } from './types';
import classes from './FieldValue.module.css';

export interface FieldValueProps {
  value: CellValue;
  type: FieldType | string;
  /** References: the kind of the record referred to (its view page is linked). */
  refKind?: Kind;
  /** Statuses: the values the field may take (they pick the badge colour). */
  choices?: readonly string[];
  /** Money: the value's currency (currencyOf: its record's, else the field's); none reads as the bare amount. */
  currency?: string;
  /** A smaller status badge (tables). */
  compact?: boolean;
}

/** "No value": a dimmed dash. */
export function NoValue() {
  return (
    <Text span c="dimmed">
      —
    </Text>
  );
}

export function FieldValue({ value, type, refKind, choices, currency, compact = false }: FieldValueProps) {
  if (isRef(value)) {
    const name = value.refName || (refKind ? `${refKind.label} ${value.id}` : '');
    if (!name) return <NoValue />;
    return refKind ? (
      <Anchor component={Link} to={viewPath(refKind, value.id)} inherit>
        {name}
      </Anchor>
    ) : (
      <>{name}</>
    );
  }
  const text = formatValue(value, type, { currency });
  if (text === '') return <NoValue />;
  const href = type === 'email' ? mailtoHref(value) : type === 'phone' ? telHref(value) : type === 'url' ? safeWebUrl(value) : undefined;
  if (href) {
    const external = type === 'url';
    return (
      <Anchor href={href} inherit className={classes.link} {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>
        {text}
      </Anchor>
    );
  }
  if (type === 'status') {
    return (
      <Badge variant="light" radius="sm" size={compact ? 'sm' : 'md'} className={classes.statusBadge} color={statusColor(text, choices)}>
        {text}
      </Badge>
    );
  }
  // Text written on several lines (a note) keeps its line breaks.
  if (text.includes('\n')) return <span className={classes.lines}>{text}</span>;
  return <>{text}</>;
}

export interface DeclaredValueProps {
  value: CellValue;
  field: KindField;
  kinds: readonly Kind[] | undefined;
  /**
   * The currency of the record the value is of (RecordDetail.currency), when it names one:
   * money reads in it rather than in the field's (base) currency.
   */
  recordCurrency?: string;
  compact?: boolean;
}

/** A field's value with everything its declaration says: the referred kind, choices, currency. */
export function DeclaredValue({ value, field, kinds, recordCurrency, compact }: DeclaredValueProps) {
  return (
    <FieldValue
      value={value}
      type={field.type}
      refKind={kindByName(kinds, field.ref)}
      choices={field.choices}
      currency={declaredCurrency(field, recordCurrency)}
      compact={compact}
    />
  );
}

/** The kind a reference field of `kind` points at. */
export function refKindOf(kinds: readonly Kind[] | undefined, kind: Kind | undefined, fieldName: string): Kind | undefined {
  return kindByName(kinds, kind?.fields.find((f) => f.name === fieldName)?.ref);
}
