import { Anchor, Button, Group, Paper, Progress, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQueries, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useId, useMemo, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../api';
import { viewPath } from '../app/paths';
import { BadgeList, type BadgeItem } from '../components/ui/BadgeList';
import { formatQuantity, formatValue } from '../records/format';
import { listPath } from '../records/links';
import { listSearchString } from '../records/listState';
import { kindsQuery, listPageQuery } from '../records/queries';
import { ErrorBlock } from '../records/States';
import { statusColor } from '../records/status';
import type { CellValue, Kind, Row } from '../records/types';
import { useSessionStore } from '../session';
import { useAppStore } from '../shell/appState';
import { ShortlistCards } from '../shortlist/ShortlistCards';
import { CREDIT_POOLS_LIMIT, dashboardPlan, type DashboardPlan, type StatusCount } from './DashboardPage.queries';
import classes from './DashboardPage.module.css';

/** "Ada Admin" → "Ada". */
export function firstName(fullName: string | undefined): string {
  return fullName?.trim().split(/\s+/)[0] ?? '';
}

const countFormat = new Intl.NumberFormat('en-US');

/** A list page of `kind` narrowed by `filter` (and shown through saved list `list`). */
function filteredList(kind: Kind, filter: string, list?: string): string {
  return listPath(kind, listSearchString({ filter, list, after: [], hide: [] }));
}

function errorText(error: unknown): string {
  if (error instanceof ApiError && error.status === 403) return 'Not available to your role.';
  return error instanceof Error ? error.message : String(error);
}

/** A small failure note with a retry, inside a card. */
function InlineError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <Group gap="xs" className={classes.inlineError} data-state="error">
      <Text size="sm" c="red.7">
        {errorText(error)}
      </Text>
      {!(error instanceof ApiError && error.status === 403) && (
        <Button size="compact-xs" variant="light" color="red" onClick={onRetry}>
          Try again
        </Button>
      )}
    </Group>
  );
}

function Card({ title, children, action, testId }: { title: string; children: ReactNode; action?: ReactNode; testId?: string }) {
  const headingId = useId();
  return (
    <Paper component="section" withBorder radius="md" p="md" className={classes.card} aria-labelledby={headingId} data-testid={testId}>
      <Group justify="space-between" align="baseline" gap="xs" mb="sm" wrap="nowrap">
        <Title order={2} id={headingId} className={classes.cardTitle}>
          {title}
        </Title>
        {action}
      </Group>
      {children}
    </Paper>
  );
}

/** One key figure: label, big value, a line of detail, an optional link. */
function Kpi({
  label,
  value,
  detail,
  link,
  state,
  error,
  onRetry,
  testId,
}: {
  label: string;
  value: string;
  detail?: ReactNode;
  link?: { to: string; text: string };
  state: 'pending' | 'error' | 'success';
  error?: unknown;
  onRetry?: () => void;
  testId: string;
}) {
  const labelId = useId();
  return (
    <Paper component="section" withBorder radius="md" p="md" className={classes.kpi} aria-labelledby={labelId} data-testid={testId}>
      <Text id={labelId} size="sm" fw={600} c="dimmed" className={classes.kpiLabel}>
        {label}
      </Text>
      {state === 'pending' && (
        <Stack gap={8} mt={6} aria-busy="true">
          <Skeleton height={34} width="45%" radius="sm" />
          <Skeleton height={14} width="70%" radius="sm" />
        </Stack>
      )}
      {state === 'error' && <InlineError error={error} onRetry={onRetry ?? (() => {})} />}
      {state === 'success' && (
        <>
          <Text className={classes.kpiValue} data-state="ready">
            {value}
          </Text>
          {detail && <div className={classes.kpiDetail}>{detail}</div>}
        </>
      )}
      {link && (
        <Anchor component={Link} to={link.to} size="sm" className={classes.kpiLink}>
          {link.text}
        </Anchor>
      )}
    </Paper>
  );
}

/** The combined state of several queries. */
function combined(results: UseQueryResult<unknown>[]) {
  const failed = results.find((r) => r.isError);
  return {
    state: failed ? ('error' as const) : results.some((r) => r.isPending) ? ('pending' as const) : ('success' as const),
    error: failed?.error,
    retry: () => results.filter((r) => r.isError).forEach((r) => void r.refetch()),
  };
}

function useCounts(counts: readonly StatusCount[]) {
  return useQueries({ queries: counts.map((c) => c.query) });
}

function ActiveProjectsKpi({ projects }: { projects: NonNullable<DashboardPlan['projects']> }) {
  const results = useCounts(projects.statuses);
  const { state, error, retry } = combined(results);
  const active = projects.active!;
  const index = projects.statuses.findIndex((s) => s.status === active.status);
  const activeCount = results[index]?.data ?? 0;
  const total = results.reduce((sum, r) => sum + (r.data ?? 0), 0);
  return (
    <Kpi
      testId="kpi-active-projects"
      label="Active projects"
      value={countFormat.format(activeCount)}
      detail={
        <Text size="sm" c="dimmed">
          of {countFormat.format(total)} {total === 1 ? 'project' : 'projects'}
        </Text>
      }
      link={{ to: filteredList(projects.kind, active.filter), text: 'View active projects' }}
      state={state}
      error={error}
      onRetry={retry}
    />
  );
}

function InvoicesKpi({ invoices }: { invoices: NonNullable<DashboardPlan['invoices']> }) {
  const results = useCounts(invoices.outstanding);
  const { state, error, retry } = combined(results);
  const total = results.reduce((sum, r) => sum + (r.data ?? 0), 0);
  const badges: BadgeItem[] = invoices.outstanding.map((s, i) => ({
    text: `${countFormat.format(results[i]?.data ?? 0)} ${s.status.toLowerCase()}`,
    color: statusColor(s.status, invoices.statusField.choices),
    to: filteredList(invoices.kind, s.filter),
  }));
  return (
    <Kpi
      testId="kpi-invoices"
      label="Invoices outstanding"
      value={countFormat.format(total)}
      detail={<BadgeList badges={badges} mini aria-label="Outstanding invoices by status" />}
      link={{ to: listPath(invoices.kind), text: 'View invoices' }}
      state={state}
      error={error}
      onRetry={retry}
    />
  );
}

function CreditsKpi({ credits }: { credits: NonNullable<DashboardPlan['credits']> }) {
  const result = useQuery(credits.query);
  const data = result.data;
  const value = data ? `${data.complete ? '' : '≥ '}${formatQuantity(data.sum)}` : '';
  const pools = data ? countFormat.format(data.pools) : '';
  return (
    <Kpi
      testId="kpi-credits"
      label="Credits available"
      value={value}
      detail={
        data && (
          <Text size="sm" c="dimmed">
            {data.complete
              ? `across ${pools} credit ${data.pools === 1 ? 'pool' : 'pools'}`
              : `in the ${countFormat.format(CREDIT_POOLS_LIMIT)} largest of ${pools} pools`}
          </Text>
        )
      }
      link={{ to: listPath(credits.kind), text: 'View credit availability' }}
      state={result.isError ? 'error' : result.isPending ? 'pending' : 'success'}
      error={result.error}
      onRetry={() => void result.refetch()}
    />
  );
}

function ProjectsByStatus({ projects }: { projects: NonNullable<DashboardPlan['projects']> }) {
  const results = useCounts(projects.statuses);
  const { state, error, retry } = combined(results);
  const total = results.reduce((sum, r) => sum + (r.data ?? 0), 0);
  return (
    <Card title="Projects by status" testId="projects-by-status">
      {state === 'error' && <InlineError error={error} onRetry={retry} />}
      <ul className={classes.statusList}>
        {projects.statuses.map((s, i) => {
          const count = results[i]?.data;
          const share = total > 0 && count !== undefined ? (count / total) * 100 : 0;
          return (
            <li key={s.status} className={classes.statusRow}>
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Anchor component={Link} to={filteredList(projects.kind, s.filter)} size="sm" className={classes.statusName}>
                  {s.status}
                </Anchor>
                {count === undefined ? (
                  <Skeleton height={14} width={32} radius="sm" />
                ) : (
                  <Text size="sm" fw={600} className={classes.statusCount}>
                    {countFormat.format(count)}
                  </Text>
                )}
              </Group>
              <Progress
                value={share}
                color={statusColor(s.status, projects.statusField.choices)}
                size="sm"
                radius="xl"
                aria-label={`${s.status}: ${count === undefined ? 'loading' : `${countFormat.format(count)} of ${countFormat.format(total)}`}`}
              />
            </li>
          );
        })}
      </ul>
    </Card>
  );
}

/** Reads a row's value for the kind's field on `column`, if the list has that column. */
function cellOn(kind: Kind, row: Row, columns: readonly string[], column: string): { value: CellValue; type: string } | undefined {
  const field = kind.fields.find((f) => f.column === column);
  if (!field || !columns.includes(field.name)) return undefined;
  const value = row[field.name];
  return value === null || value === undefined || value === '' ? undefined : { value, type: field.type };
}

function ActiveProjects({ projects }: { projects: NonNullable<DashboardPlan['projects']> }) {
  const active = projects.active!;
  const page = useQuery(listPageQuery(active.table));
  const viewAll = filteredList(projects.kind, active.filter, active.table.list);
  const columns = page.data?.columns.map((c) => c.name) ?? [];
  return (
    <Card
      title="Your active projects"
      testId="active-projects"
      action={
        <Anchor component={Link} to={viewAll} size="sm" className={classes.noWrap}>
          View all
        </Anchor>
      }
    >
      {page.data?.list && (
        <Text size="xs" c="dimmed" mt={-8} mb="sm">
          Most recent first, from your list “{page.data.list.name}”
        </Text>
      )}
      {page.isPending && (
        <Stack gap={8} aria-busy="true">
          {Array.from({ length: 5 }, (_, i) => (
            <Skeleton key={i} height={36} radius="sm" />
          ))}
        </Stack>
      )}
      {page.isError && <InlineError error={page.error} onRetry={() => void page.refetch()} />}
      {page.data && page.data.rows.length === 0 && (
        <Text size="sm" c="dimmed" py="md" ta="center">
          No active projects in this list.
        </Text>
      )}
      {page.data && page.data.rows.length > 0 && (
        <ul className={classes.projectList} data-state="ready" aria-label="Your active projects">
          {page.data.rows.map((row) => {
            const title = cellOn(projects.kind, row, columns, 'title');
            const client = cellOn(projects.kind, row, columns, 'parent_id');
            const start = cellOn(projects.kind, row, columns, 'occurred_on');
            const value = cellOn(projects.kind, row, columns, 'amount');
            const code = cellOn(projects.kind, row, columns, 'code');
            const name = title ? formatValue(title.value, title.type) : code ? formatValue(code.value, code.type) : `#${row.id}`;
            const meta = [client && formatValue(client.value, client.type), start && `started ${formatValue(start.value, start.type)}`].filter(Boolean);
            return (
              <li key={row.id} className={classes.projectRow}>
                <div className={classes.projectMain}>
                  <Anchor component={Link} to={viewPath('project', row.id)} fw={600} size="sm" className={classes.projectName}>
                    {name}
                  </Anchor>
                  {meta.length > 0 && (
                    <Text size="xs" c="dimmed" className={classes.projectMeta}>
                      {meta.join(' · ')}
                    </Text>
                  )}
                </div>
                {value && (
                  <Text size="sm" fw={600} className={classes.projectValue}>
                    {formatValue(value.value, value.type)}
                  </Text>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}

/** Dashboard (SPEC §2 `/`, model project): the user's active projects and a few key figures. */
export default function DashboardPage() {
  const fullName = useSessionStore((s) => s.user?.fullName);
  const role = useSessionStore((s) => s.currentRole);
  const defaultLists = useAppStore((s) => s.defaultLists);
  const kinds = useQuery(kindsQuery());
  const plan = useMemo(() => (kinds.data ? dashboardPlan(kinds.data, role, defaultLists) : null), [kinds.data, role, defaultLists]);
  const name = firstName(fullName);
  const kpis = plan ? [plan.projects?.active, plan.invoices, plan.credits].filter(Boolean).length : 0;

  return (
    <div className={classes.page}>
      <div className={classes.header}>
        <Title order={1}>Dashboard</Title>
        <Text size="lg">{name ? `Welcome, ${name}.` : 'Welcome.'}</Text>
        {role && (
          <Text c="dimmed" data-testid="dashboard-role">
            You are working as {role.name}.
          </Text>
        )}
      </div>

      {kinds.isPending && (
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md" aria-busy="true" data-testid="dashboard-loading">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={132} radius="md" />
          ))}
        </SimpleGrid>
      )}
      {kinds.isError && <ErrorBlock error={kinds.error} what="the dashboard" onRetry={() => void kinds.refetch()} />}

      {plan && kpis > 0 && (
        <SimpleGrid cols={{ base: 1, sm: Math.min(kpis, 3) }} spacing="md">
          {plan.projects?.active && <ActiveProjectsKpi projects={plan.projects} />}
          {plan.invoices && <InvoicesKpi invoices={plan.invoices} />}
          {plan.credits && <CreditsKpi credits={plan.credits} />}
        </SimpleGrid>
      )}
      {plan?.projects && (
        <div className={plan.projects.active ? classes.split : undefined}>
          <ProjectsByStatus projects={plan.projects} />
          {plan.projects.active && <ActiveProjects projects={plan.projects} />}
        </div>
      )}
      {plan && !plan.projects && !plan.invoices && !plan.credits && (
        <Paper withBorder radius="md" p="xl" className={classes.empty} data-testid="dashboard-empty">
          <Text fw={600}>Nothing to show for this role yet.</Text>
          <Text size="sm" c="dimmed">
            {role ? `The ${role.name} role may not see projects, invoices or credits.` : 'Choose a role in the user menu.'} Use the
            menu to open what it may see.
          </Text>
        </Paper>
      )}
      <ShortlistCards />
    </div>
  );
}
