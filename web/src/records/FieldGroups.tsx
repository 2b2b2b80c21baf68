/** The record's fields in their groups, and its related records (the bare view page). */
import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { BadgeList, type BadgeItem } from '../components/ui/BadgeList';
import { FieldValue, refKindOf } from './FieldValue';
import { kindByName } from './kinds';
import { viewPath } from './links';
import type { Kind, RecordDetail } from './types';
import classes from './records.module.css';

/** The record's fields in their groups, and its related records. */
export function FieldGroups({ kind, kinds, record }: { kind: Kind; kinds: Kind[]; record: RecordDetail }) {
  const related = record.related ?? [];
  return (
    <Stack gap="md" data-testid="field-groups">
      {record.groups.map((group, index) => (
        <Paper key={`${group.label}-${index}`} withBorder p="md" radius="md" component="section" aria-labelledby={`group-${index}`}>
          <Title order={2} size="h4" id={`group-${index}`} mb="sm">
            {group.label}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" verticalSpacing="sm" component="dl" m={0}>
            {group.fields.map((field) => (
              <div key={field.name}>
                <Text component="dt" className={classes.fieldLabel}>
                  {field.label}
                </Text>
                <Text component="dd" m={0} fw={500} className={classes.wrapAnywhere}>
                  <FieldValue
                    value={field.value}
                    type={field.type}
                    refKind={refKindOf(kinds, kind, field.name)}
                    choices={kind.fields.find((f) => f.name === field.name)?.choices}
                  />
                </Text>
              </div>
            ))}
          </SimpleGrid>
        </Paper>
      ))}
      {related.length > 0 && (
        <Paper withBorder p="md" radius="md" component="section" aria-labelledby="related-records">
          <Title order={2} size="h4" id="related-records" mb="sm">
            Related records
          </Title>
          <BadgeList
            aria-label="Related records"
            badges={related.map((r): BadgeItem => {
              const target = kindByName(kinds, r.type);
              const to = target ? viewPath(target, r.id) : undefined;
              const text = target ? `${target.label}: ${r.name}` : r.name;
              return to ? { key: `${r.type}:${r.id}`, text, color: 'indigo', to } : { key: `${r.type}:${r.id}`, text, color: 'gray' };
            })}
          />
        </Paper>
      )}
    </Stack>
  );
}
