/** One value of a record field, shown by its type: links for references, badges for statuses. */
import { Badge, Text } from '@mantine/core';
import { Link } from 'react-router';
import { formatValue, isRef } from './format';
import { kindByName } from './kinds';
import { viewPath } from './links';
import { statusColor } from './status';
import type { CellValue, FieldType, Kind } from './types';
import classes from './records.module.css';

export function FieldValue({ value, type, refKind, choices }: { value: CellValue; type: FieldType | string; refKind?: Kind; choices?: string[] }) {
  if (isRef(value)) {
    const href = refKind ? viewPath(refKind, value.id) : undefined;
    return href ? <Link to={href}>{value.refName}</Link> : <>{value.refName}</>;
  }
  const text = formatValue(value, type);
  if (text === '') {
    return (
      <Text span c="dimmed">
        —
      </Text>
    );
  }
  if (type === 'status') {
    return (
      <Badge variant="light" radius="sm" className={classes.statusBadge} color={statusColor(text, choices)}>
        {text}
      </Badge>
    );
  }
  return <>{text}</>;
}

/** The kind a reference field of `kind` points at. */
export function refKindOf(kinds: Kind[] | undefined, kind: Kind | undefined, fieldName: string): Kind | undefined {
  return kindByName(kinds, kind?.fields.find((f) => f.name === fieldName)?.ref);
}
