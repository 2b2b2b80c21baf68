/**
 * The report builder: name, record kind, columns, filter, sort, group-by, aggregates,
 * order, chart and visibility, with a live preview (the unsaved definition run by the
 * server, shortly after the last change, whenever the form meets the rules) and save.
 * The form's rules are in builder.ts; the server's 422 field errors show on their parts.
 */
import { ActionIcon, Alert, Button, Checkbox, Group, NativeSelect, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../../lib/paths';
import { FilterBuilder, sortableFields, ErrorBlock, type Kind, recordClasses, VisibilityChoice } from '../records';
import {
  AGGREGATE_FNS,
  CHARTS,
  MAX_AGGREGATES,
  groupableFields,
  measureFields,
  reportServerErrors,
  validateReportForm,
  withFn,
  withGroupBy,
  type ReportErrors,
  type ReportForm,
} from './builder';
import { reportPreviewQuery, useSaveReport } from './queries';
import { ReportResult } from './ReportResult';
import type { AggregateFn, Report, ReportInput } from './types';
import classes from './reports.module.css';

/** How long the preview waits after the last change. */
export const PREVIEW_DELAY_MS = 600;

/** The name a preview runs under while the report has none. */
const PREVIEW_NAME = 'Preview';

export interface ReportBuilderProps {
  /** Kinds the role may report on. */
  kinds: Kind[];
  /** The form to start from (a new report's, or a saved one's). */
  initial: ReportForm;
  /** The report being edited; undefined for a new one. */
  report?: Report;
  /** Picks another kind (new reports only): the form starts again for it. */
  onKindChange?: (type: string) => void;
  /** After a save, with the saved report. */
  onSaved: (report: Report) => void;
}

function Fieldset({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md" component="fieldset" className={recordClasses.fieldsetBox}>
      <Text component="legend" fw={600} px={4}>
        {legend}
      </Text>
      {children}
    </Paper>
  );
}

function FieldError({ children }: { children?: string }) {
  if (!children) return null;
  return (
    <Text c="red" size="sm" mt={4} role="alert">
      {children}
    </Text>
  );
}

export function ReportBuilder({ kinds, initial, report, onKindChange, onSaved }: ReportBuilderProps) {
  const kind = kinds.find((k) => k.name === initial.type)!;
  const [form, setForm] = useState<ReportForm>(initial);
  const [errors, setErrors] = useState<ReportErrors>({});
  const [showErrors, setShowErrors] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  const save = useSaveReport();
  const set = (patch: Partial<ReportForm>) => setForm((f) => ({ ...f, ...patch }));

  const check = validateReportForm(form, kind);
  // The preview runs what the form says once it meets the rules (a report not yet named
  // is previewed all the same), after a pause in typing. Debounced as text: the input is
  // a new object on every render.
  const previewCheck = form.name.trim() ? check : validateReportForm({ ...form, name: PREVIEW_NAME }, kind);
  const [previewJson] = useDebouncedValue(previewCheck.input ? JSON.stringify(previewCheck.input) : '', PREVIEW_DELAY_MS);
  const previewInput = useMemo(() => (previewJson ? (JSON.parse(previewJson) as ReportInput) : undefined), [previewJson]);
  const preview = useQuery(reportPreviewQuery(kind.name, previewInput));
  const shown: ReportErrors = showErrors ? { ...check.errors, ...errors } : errors;

  const groupable = groupableFields(kind);
  const measures = measureFields(kind);
  const sortable = sortableFields(kind);
  const grouped = !!form.groupBy;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setShowErrors(true);
    setErrors({});
    if (!check.input) {
      if (check.errors.name) nameRef.current?.focus();
      return;
    }
    try {
      onSaved(await save.mutateAsync({ type: kind.name, id: report?.id, input: check.input }));
    } catch (error) {
      setErrors(reportServerErrors(error));
    }
  }

  const title = report ? `Edit “${report.name}”` : 'New report';
  const setAggregate = (index: number, next: ReportForm['aggregates'][number]) => set({ aggregates: form.aggregates.map((a, i) => (i === index ? next : a)) });

  return (
    <Stack gap="md">
      <div>
        <Text size="sm">
          <Link to={paths.reportList}>Reports</Link>
          <Text span c="dimmed">
            {' '}
            / {report ? 'Edit' : 'New'}
          </Text>
        </Text>
        <Title order={1}>{title}</Title>
      </div>
      <div className={classes.builder}>
        <form onSubmit={(e) => void submit(e)} noValidate aria-label={title}>
          <Stack gap="md">
            {shown.form && (
              <Alert color="red" variant="light" title="The report was not saved" role="alert">
                {shown.form}
              </Alert>
            )}
            <TextInput ref={nameRef} label="Name" required value={form.name} onChange={(e) => set({ name: e.currentTarget.value })} error={shown.name} autoComplete="off" />
            <NativeSelect
              label="Records"
              description={report ? 'A saved report keeps its kind of records.' : undefined}
              value={kind.name}
              disabled={!!report}
              data={kinds.map((k) => ({ value: k.name, label: k.plural }))}
              onChange={(e) => onKindChange?.(e.currentTarget.value)}
            />

            <Fieldset legend="Filter">
              <FilterBuilder id="report-filter" fields={kind.fields} draft={form.filter} onChange={(filter) => set({ filter })} check={showErrors ? check.filterCheck : null} />
              <FieldError>{shown.filter}</FieldError>
            </Fieldset>

            <Fieldset legend="Grouping">
              <Stack gap="sm">
                <NativeSelect
                  label="Group by"
                  value={form.groupBy}
                  data={[
                    { value: '', label: 'No grouping: a table of records' },
                    ...groupable.map((f) => ({ value: f.name, label: f.type === 'date' ? `${f.label} (by month)` : f.label })),
                  ]}
                  onChange={(e) => {
                    const groupBy = e.currentTarget.value;
                    setForm((f) => withGroupBy(f, groupBy));
                  }}
                  error={shown.groupBy}
                />
                {grouped && (
                  <>
                    <Stack gap="xs" role="group" aria-label="Aggregates">
                      <Text size="sm" fw={500}>
                        Aggregates
                      </Text>
                      {form.aggregates.map((aggregate, index) => {
                        const n = index + 1;
                        return (
                          <div key={index} className={classes.aggregateRow} data-testid="aggregate-row">
                            <NativeSelect
                              aria-label={`Aggregate ${n}`}
                              value={aggregate.fn}
                              data={AGGREGATE_FNS.map((a) => ({ ...a, disabled: a.value !== 'count' && measures.length === 0 }))}
                              onChange={(e) => setAggregate(index, withFn(aggregate, e.currentTarget.value as AggregateFn, kind))}
                              error={shown.aggregateRows?.[index]}
                            />
                            {aggregate.fn === 'count' ? (
                              <span />
                            ) : (
                              <NativeSelect
                                aria-label={`Aggregate ${n} field`}
                                value={aggregate.field ?? ''}
                                data={measures.map((f) => ({ value: f.name, label: f.label }))}
                                onChange={(e) => setAggregate(index, { fn: aggregate.fn, field: e.currentTarget.value })}
                              />
                            )}
                            <ActionIcon
                              variant="subtle"
                              color="gray"
                              size="lg"
                              aria-label={`Remove aggregate ${n}`}
                              disabled={form.aggregates.length === 1}
                              onClick={() => set({ aggregates: form.aggregates.filter((_, i) => i !== index) })}
                            >
                              <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
                                <path d="M18 6 6 18M6 6l12 12" />
                              </svg>
                            </ActionIcon>
                          </div>
                        );
                      })}
                      <FieldError>{shown.aggregates}</FieldError>
                      <Group gap="xs">
                        <Button
                          variant="light"
                          size="compact-sm"
                          disabled={form.aggregates.length >= MAX_AGGREGATES}
                          onClick={() => set({ aggregates: [...form.aggregates, measures[0] ? { fn: 'sum', field: measures[0].name } : { fn: 'count' }] })}
                        >
                          Add aggregate
                        </Button>
                      </Group>
                    </Stack>
                    <NativeSelect
                      label="Order of the groups"
                      value={form.order}
                      data={[
                        { value: 'key', label: 'By group' },
                        { value: 'value', label: 'By the first aggregate, largest first' },
                      ]}
                      onChange={(e) => set({ order: e.currentTarget.value === 'value' ? 'value' : 'key' })}
                      error={shown.order}
                    />
                  </>
                )}
                <NativeSelect
                  label="Chart"
                  description={grouped ? undefined : 'Charts need a group-by field.'}
                  value={form.chart}
                  data={CHARTS.map((c) => ({ ...c, disabled: !grouped && c.value !== 'table' }))}
                  onChange={(e) => set({ chart: e.currentTarget.value as ReportForm['chart'] })}
                  error={shown.chart}
                />
              </Stack>
            </Fieldset>

            {!grouped && (
              <Fieldset legend="Table">
                <Checkbox.Group label="Columns" value={form.columns} onChange={(columns) => set({ columns: kind.fields.map((f) => f.name).filter((n) => columns.includes(n)) })} error={shown.columns}>
                  <div className={classes.columnChoices}>
                    {kind.fields.map((f) => (
                      <Checkbox key={f.name} value={f.name} label={f.label} mt={6} />
                    ))}
                  </div>
                </Checkbox.Group>
                <Group gap="sm" mt="sm" align="flex-start">
                  <NativeSelect
                    label="Sort by"
                    value={form.sortField}
                    data={sortable.map((f) => ({ value: f.name, label: f.label }))}
                    onChange={(e) => set({ sortField: e.currentTarget.value })}
                    error={shown.sort}
                  />
                  <NativeSelect
                    label="Direction"
                    value={form.sortDir}
                    data={[
                      { value: 'asc', label: 'Ascending' },
                      { value: 'desc', label: 'Descending' },
                    ]}
                    onChange={(e) => set({ sortDir: e.currentTarget.value === 'desc' ? 'desc' : 'asc' })}
                  />
                </Group>
              </Fieldset>
            )}

            <VisibilityChoice noun="report" value={form.visibility} roleId={form.roleId} onChange={(visibility, roleId) => set({ visibility, roleId })} error={shown.visibility} />

            <Group gap="sm">
              <Button type="submit" loading={save.isPending}>
                {report ? 'Save changes' : 'Save report'}
              </Button>
              <Button component={Link} to={paths.reportList} variant="default">
                Cancel
              </Button>
            </Group>
          </Stack>
        </form>

        <section aria-labelledby="report-preview-title">
          <Stack gap="sm">
            <Title order={2} size="h3" id="report-preview-title">
              Preview
            </Title>
            {!previewInput && (
              <Text size="sm" c="dimmed">
                {previewCheck.input ? 'Running…' : 'The preview shows once the report meets the rules (see the marked parts when saving).'}
              </Text>
            )}
            {previewInput && preview.error && <ErrorBlock error={preview.error} what="the preview" onRetry={() => void preview.refetch()} />}
            {previewInput && preview.data && (
              <ReportResult run={preview.data} chart={previewInput.report.chart} title={previewInput.name} kind={kind} kinds={kinds} busy={preview.isFetching} headingOrder={3} />
            )}
            {previewInput && preview.isPending && (
              <Text size="sm" c="dimmed">
                Running…
              </Text>
            )}
          </Stack>
        </section>
      </div>
    </Stack>
  );
}
