import { Anchor, Group, Paper, Progress, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, type ReactNode } from 'react';
import { Link } from 'react-router';
import { BadgeList, type BadgeItem } from '../../components/ui/BadgeList';
import { formatCount, formatUnitTotals, joinTotals, fieldOf, kindByName, totalsFormatOf, viewPath, kindsQuery, recordNameQuery, ErrorBlock, statusColor, type Kind, UnitList } from '../records';
import { useSessionStore } from '../../lib/session';
import { ShortlistCards } from '../shortlist';
import { cardPath, dashboardQuery, type AgingSection, type Dashboard, type DashboardCard, type MineSection, type MyProject } from './DashboardPage.queries';
import classes from './DashboardPage.module.css';

/** "Ada Admin" → "Ada". */
export function firstName(fullName: string | undefined): string {
  return fullName?.trim().split(/\s+/)[0] ?? '';
}

/** "1 invoice", "12 invoices": a count of records of a kind, in words. */
export function countOf(n: number, kind: Pick<Kind, 'label' | 'plural'> | undefined): string {
  const noun = kind ? (n === 1 ? kind.label : kind.plural).toLowerCase() : n === 1 ? 'record' : 'records';
  return `${formatCount(n)} ${noun}`;
}

/** What a card counts, in the singular for one record when it says so ("Vendor bill awaiting my approval"). */
export function cardLabel(card: Pick<DashboardCard, 'label' | 'one' | 'count'>): string {
  return card.count === 1 && card.one ? card.one : card.label;
}

/**
 * A card's totals, one text per unit as its field's values read: money in its currency
 * ("€1,250.00", "£300.00"), credits with their type ("34.00 Wetland"); an estimate marked
 * "≈". None when the card totals nothing.
 */
export function totalsOf(card: DashboardCard, kind: Kind | undefined): string[] {
  if (!card.amount || !card.totals) return [];
  const texts = formatUnitTotals(card.totals, totalsFormatOf(kind, card.amount, card.type));
  return card.estimated ? texts.map((t) => `≈ ${t}`) : texts;
}

/** What a card's totals are per, naming their list: "by currency", "by credit type". */
function perUnit(card: DashboardCard, kind: Kind | undefined): string {
  const amount = fieldOf(kind, card.amount ?? '');
  const per = fieldOf(kind, amount?.per ?? '');
  if (per) return `by ${per.label.toLowerCase()}`;
  return (card.type ?? amount?.type) === 'money' ? 'by currency' : 'by unit';
}

function Section({ title, children, action, testId }: { title: string; children: ReactNode; action?: ReactNode; testId?: string }) {
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

/**
 * One key figure: label, big value, a line of detail, a link to the list behind it. A value
 * of several units (totals per currency or credit type) is a list, one per line, smaller,
 * so it fits a phone; `unitsLabel` names the list ("Credits available by credit type").
 */
function Kpi({
  label,
  value,
  unitsLabel,
  detail,
  link,
  testId,
}: {
  label: string;
  value: string | readonly string[];
  unitsLabel?: string;
  detail?: ReactNode;
  link?: { to: string; text: string };
  testId: string;
}) {
  const labelId = useId();
  const texts = typeof value === 'string' ? [value] : value;
  return (
    <Paper component="section" withBorder radius="md" p="md" className={classes.kpi} aria-labelledby={labelId} data-testid={testId}>
      <Text id={labelId} size="sm" fw={600} className={classes.kpiLabel}>
        {label}
      </Text>
      <Text component="div" className={texts.length > 1 ? `${classes.kpiValue} ${classes.kpiValues}` : classes.kpiValue} data-state="ready" data-testid="kpi-value">
        <UnitList texts={texts} aria-label={unitsLabel} />
      </Text>
      {detail && <div className={classes.kpiDetail}>{detail}</div>}
      {link && (
        <Anchor component={Link} to={link.to} size="sm" className={classes.kpiLink}>
          {link.text}
        </Anchor>
      )}
    </Paper>
  );
}

/** A counting card's totals as its figure shows them: none when it counts nothing (no "$0.00" beside the 0). */
function countedTotals(card: DashboardCard, kind: Kind): string[] {
  return card.count > 0 ? totalsOf(card, kind) : [];
}

/** A counting card's amount under its count, named by its field ("Contract value: $250,000.00"); nothing without {@link countedTotals}. */
function KpiAmount({ card, kind }: { card: DashboardCard; kind: Kind }) {
  const totals = countedTotals(card, kind);
  if (totals.length === 0) return null;
  const name = fieldOf(kind, card.amount ?? '')?.label ?? 'Total';
  return (
    <Text size="sm" c="dimmed" component="div" data-testid="kpi-amount">
      {name}: <UnitList texts={totals} inline aria-label={`${name} ${perUnit(card, kind)}`} />
    </Text>
  );
}

/** The user's records of one kind: how many, their amount per currency, by status, each opening its list. */
function MineKpi({ mine, kind }: { mine: MineSection; kind: Kind }) {
  const status = kind.fields.find((f) => f.column === 'status');
  const badges: BadgeItem[] = mine.byStatus.map((c) => ({
    text: `${formatCount(c.count)} ${c.label.toLowerCase()}`,
    color: statusColor(c.label, status?.choices),
    to: cardPath(kind, c),
  }));
  return (
    <Kpi
      testId={`kpi-mine-${kind.route}`}
      label={mine.all.label}
      value={formatCount(mine.all.count)}
      detail={
        (countedTotals(mine.all, kind).length > 0 || badges.length > 0) && (
          <>
            <KpiAmount card={mine.all} kind={kind} />
            {badges.length > 0 && <BadgeList badges={badges} mini aria-label={`${mine.all.label} by ${status?.label.toLowerCase() ?? 'status'}`} />}
          </>
        )
      }
      link={{ to: cardPath(kind, mine.all), text: `View ${mine.all.label.toLowerCase()}` }}
    />
  );
}

/**
 * What waits for the user's decision, first on the page: per kind they approve, how many
 * records and their amount, opening the list of them (the kind's "awaiting" filter).
 */
function Approvals({ shown }: { shown: readonly { card: DashboardCard; kind: Kind }[] }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} data-testid="approvals">
      <Title order={2} id={headingId} className={classes.cardTitle} mb="sm">
        Awaiting my approval
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: Math.min(shown.length, 4) }} spacing="md">
        {shown.map(({ card, kind }) => (
          <Kpi
            key={card.kind}
            testId={`kpi-approvals-${kind.route}`}
            label={cardLabel(card)}
            value={formatCount(card.count)}
            detail={
              card.count === 0 ? (
                <Text size="sm" c="dimmed">
                  Nothing waits for your decision
                </Text>
              ) : (
                <KpiAmount card={card} kind={kind} />
              )
            }
            link={{ to: cardPath(kind, card), text: `View ${card.label.toLowerCase()}` }}
          />
        ))}
      </SimpleGrid>
    </section>
  );
}

/** Open balances of one kind: the amount outstanding and what is overdue. */
function AgingKpis({ aging, kind }: { aging: AgingSection; kind: Kind }) {
  const { outstanding, overdue } = aging;
  return (
    <>
      <Kpi
        testId={`kpi-${kind.route}-outstanding`}
        label={`${aging.label} outstanding`}
        value={totalsOf(outstanding, kind)}
        unitsLabel={`${aging.label} outstanding ${perUnit(outstanding, kind)}`}
        detail={
          <Text size="sm" c="dimmed">
            {countOf(outstanding.count, kind)} with an amount remaining
          </Text>
        }
        link={{ to: cardPath(kind, outstanding), text: `View outstanding ${kind.plural.toLowerCase()}` }}
      />
      <Kpi
        testId={`kpi-${kind.route}-overdue`}
        label={`${aging.label} overdue`}
        value={formatCount(overdue.count)}
        detail={
          <Text size="sm" c="dimmed">
            {overdue.count === 0 ? 'Nothing past its due date' : `${joinTotals(totalsOf(overdue, kind))} past due`}
          </Text>
        }
        link={{ to: cardPath(kind, overdue), text: `View overdue ${kind.plural.toLowerCase()}` }}
      />
    </>
  );
}

/**
 * What share of the outstanding a bucket holds, for its bar: of the amount when all of it is
 * in one currency; of the invoices when it is in several (amounts of different currencies
 * are not comparable). Said in words for the bar's label.
 */
export function bucketShare(bucket: DashboardCard, outstanding: DashboardCard, kind: Kind | undefined): { percent: number; of: string } {
  const whole = outstanding.totals ?? [];
  const part = bucket.totals ?? [];
  const [total] = whole;
  if (whole.length === 1 && total && part.every((t) => (t.unit ?? '') === (total.unit ?? ''))) {
    const amount = part[0]?.total ?? 0;
    return { percent: total.total > 0 ? (amount / total.total) * 100 : 0, of: `${joinTotals(totalsOf(bucket, kind))} of ${joinTotals(totalsOf(outstanding, kind))}` };
  }
  return { percent: outstanding.count > 0 ? (bucket.count / outstanding.count) * 100 : 0, of: `${countOf(bucket.count, kind)} of ${countOf(outstanding.count, kind)}` };
}

/** The outstanding amount by days past due, each bucket opening its list. */
function AgingBuckets({ aging, kind }: { aging: AgingSection; kind: Kind }) {
  return (
    <Section title={`${aging.label} aging`} testId={`aging-${kind.route}`}>
      <ul className={classes.statusList} aria-label={`${aging.label} by days past due`}>
        {aging.buckets.map((b) => {
          const { percent: share, of } = bucketShare(b, aging.outstanding, kind);
          return (
            <li key={b.label} className={classes.statusRow} data-testid="aging-bucket">
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Anchor component={Link} to={cardPath(kind, b)} size="sm" className={classes.statusName}>
                  {b.label}
                </Anchor>
                <Text size="sm" component="div" className={classes.statusCount}>
                  <Text span size="sm" c="dimmed">
                    {countOf(b.count, kind)} ·{' '}
                  </Text>
                  <div className={classes.amount}>
                    <UnitList texts={totalsOf(b, kind)} inline aria-label={`${b.label} ${perUnit(b, kind)}`} data-testid="aging-amount" />
                  </div>
                </Text>
              </Group>
              <Progress value={share} color={b.label === 'Current' ? 'teal' : share > 0 ? 'orange' : 'gray'} size="sm" radius="xl" aria-label={`${b.label}: ${of}`} />
            </li>
          );
        })}
      </ul>
      {aging.undated > 0 && (
        <Text size="sm" c="dimmed" mt="sm">
          {countOf(aging.undated, kind)} outstanding without a due date are in no bucket.
        </Text>
      )}
    </Section>
  );
}

/** The user's active projects, each with its open items. */
function MyProjects({ projects, kinds }: { projects: NonNullable<Dashboard['projects']>; kinds: Kind[] }) {
  const project = kindByName(kinds, projects.all.kind);
  return (
    <Section
      title="My active projects"
      testId="active-projects"
      action={
        project && (
          <Anchor component={Link} to={cardPath(project, projects.all)} size="sm" className={classes.noWrap}>
            View all {formatCount(projects.all.count)}
          </Anchor>
        )
      }
    >
      {projects.rows.length === 0 ? (
        <Text size="sm" c="dimmed" py="md" ta="center" data-state="ready">
          You manage no active projects.
        </Text>
      ) : (
        <ul className={classes.projectList} data-state="ready" aria-label="My active projects">
          {projects.rows.map((p) => (
            <ProjectRow key={p.id} project={p} kinds={kinds} projectKind={project} />
          ))}
        </ul>
      )}
      {projects.rows.length > 0 && projects.all.count > projects.rows.length && (
        <Text size="xs" c="dimmed" mt="xs">
          The first {projects.rows.length} by name.
        </Text>
      )}
    </Section>
  );
}

function ProjectRow({ project, kinds, projectKind }: { project: MyProject; kinds: Kind[]; projectKind: Kind | undefined }) {
  const href = projectKind ? viewPath(projectKind, project.id) : undefined;
  const badges: BadgeItem[] = project.open.flatMap((c) => {
    const kind = kindByName(kinds, c.kind);
    return kind ? [{ key: c.kind, text: `${formatCount(c.count)} ${cardLabel(c).toLowerCase()}`, color: 'orange', to: cardPath(kind, c) }] : [];
  });
  return (
    <li className={classes.projectRow} data-testid="my-project">
      <div className={classes.projectMain}>
        {href ? (
          <Anchor component={Link} to={href} fw={600} size="sm" className={classes.projectName}>
            {project.name}
          </Anchor>
        ) : (
          <Text fw={600} size="sm">
            {project.name}
          </Text>
        )}
        {project.client && (
          <Text size="xs" c="dimmed" className={classes.projectMeta}>
            {project.client.refName}
          </Text>
        )}
      </div>
      {badges.length > 0 ? (
        <BadgeList badges={badges} mini aria-label={`Open items of ${project.name}`} />
      ) : (
        <Text size="xs" c="dimmed" className={classes.noWrap}>
          Nothing open
        </Text>
      )}
    </li>
  );
}

function DashboardBody({ data, kinds, roleName, hasMenu }: { data: Dashboard; kinds: Kind[]; roleName: string | undefined; hasMenu: boolean }) {
  // The lists "mine" opens filter on the user's employee record: its name is known here,
  // so their filter shows it (a role may not see employees' pages).
  const queryClient = useQueryClient();
  const employee = data.employee;
  const owned = kinds.find((k) => k.owner);
  const employeeKind = owned?.fields.find((f) => f.name === owned.owner)?.ref;
  useEffect(() => {
    if (employee && employeeKind) queryClient.setQueryData(recordNameQuery(employeeKind, employee.id).queryKey, employee.refName);
  }, [queryClient, employee, employeeKind]);
  const kpis: ReactNode[] = [];
  for (const mine of data.mine) {
    const kind = kindByName(kinds, mine.kind);
    if (kind) kpis.push(<MineKpi key={`mine-${kind.name}`} mine={mine} kind={kind} />);
  }
  for (const aging of data.aging) {
    const kind = kindByName(kinds, aging.kind);
    if (kind) kpis.push(<AgingKpis key={`aging-${kind.name}`} aging={aging} kind={kind} />);
  }
  const credits = data.credits;
  const creditKind = credits && kindByName(kinds, credits.kind);
  if (credits && creditKind) {
    kpis.push(
      <Kpi
        key="credits"
        testId="kpi-credits"
        label={credits.label}
        value={totalsOf(credits, creditKind)}
        unitsLabel={`${credits.label} ${perUnit(credits, creditKind)}`}
        detail={
          <Text size="sm" c="dimmed">
            across {formatCount(credits.count)} credit {credits.count === 1 ? 'pool' : 'pools'}
          </Text>
        }
        link={{ to: cardPath(creditKind, credits), text: `View ${creditKind.plural.toLowerCase()}` }}
      />,
    );
  }
  // Kinds with an owner the role may see: "mine" needs the user's employee record.
  const ownsSomething = kinds.some((k) => k.owner);
  const agingSections = data.aging.flatMap((a) => {
    const kind = kindByName(kinds, a.kind);
    return kind ? [<AgingBuckets key={a.kind} aging={a} kind={kind} />] : [];
  });
  // Without an employee record the notice says why nothing of the user's own shows: the
  // role may well see projects, so "sees no projects" would be untrue.
  const noEmployee = !data.employee && ownsSomething;
  const approvals = (data.approvals ?? []).flatMap((card) => {
    const kind = kindByName(kinds, card.kind);
    return kind ? [{ card, kind }] : [];
  });
  return (
    <>
      {approvals.length > 0 && <Approvals shown={approvals} />}
      {noEmployee && (
        <Paper withBorder radius="md" p="md" data-testid="no-employee">
          <Text size="sm">
            Your sign-in is not linked to an employee record (by e-mail address), so the dashboard cannot show the records you manage or own.
          </Text>
        </Paper>
      )}
      {kpis.length > 0 && (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: Math.min(kpis.length, 4) }} spacing="md">
          {kpis}
        </SimpleGrid>
      )}
      {(data.projects || agingSections.length > 0) && (
        <div className={classes.split}>
          {data.projects && <MyProjects projects={data.projects} kinds={kinds} />}
          {agingSections}
        </div>
      )}
      {kpis.length === 0 && !data.projects && !noEmployee && approvals.length === 0 && (
        <Paper withBorder radius="md" p="xl" className={classes.empty} data-testid="dashboard-empty">
          <Text fw={600}>Nothing to show for this role yet.</Text>
          <Text size="sm" c="dimmed">
            {roleName ? `The ${roleName} role sees no projects, balances or credits.` : 'Choose a role in the user menu.'}
            {hasMenu ? ' Use the menu to open what it may see.' : ' Search (the box at the top) finds the records it may see.'}
          </Text>
        </Paper>
      )}
    </>
  );
}

/**
 * Dashboard (SPEC §2 `/`): the user's own. What awaits their approval, what they manage or
 * own, their active projects with open items, receivables and payables with their aging,
 * the credits available — each part only for a role that may see it. Every figure opens the list with the same
 * filter, so the list shows the same number.
 */
export default function DashboardPage() {
  const fullName = useSessionStore((s) => s.user?.fullName);
  const role = useSessionStore((s) => s.currentRole);
  // The role's menu could not be built (no layout): said here for as long as it lasts,
  // not only in the alert that announced it.
  const menuError = useSessionStore((s) => s.menuError);
  const kinds = useQuery(kindsQuery());
  const dashboard = useQuery(dashboardQuery());
  const name = firstName(fullName);
  const failed = kinds.error ?? dashboard.error;

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
      {role && menuError && (
        <Paper withBorder radius="md" p="md" data-testid="no-menu">
          <Text fw={600}>This role has no menu</Text>
          <Text size="sm">
            {menuError} Until your portal administrator gives the {role.name} role a menu, open records from the search box at the top,
            or switch to another role in the user menu.
          </Text>
        </Paper>
      )}
      {failed ? (
        <ErrorBlock
          error={failed}
          what="the dashboard"
          onRetry={() => {
            if (kinds.isError) void kinds.refetch();
            if (dashboard.isError) void dashboard.refetch();
          }}
        />
      ) : kinds.data && dashboard.data ? (
        <DashboardBody data={dashboard.data} kinds={kinds.data} roleName={role?.name} hasMenu={!menuError} />
      ) : (
        <Stack gap="md" aria-busy="true" data-testid="dashboard-loading">
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} height={132} radius="md" />
            ))}
          </SimpleGrid>
          <Skeleton height={220} radius="md" />
        </Stack>
      )}
      <ShortlistCards />
    </div>
  );
}
