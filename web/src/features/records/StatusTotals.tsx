/**
 * A tab's totals by status: for records with a status and an amount (a project's credits
 * by transaction type, its invoices by status), each status's count and total over all
 * the tab's records, from the server. Statuses are never added together: released, sold
 * and retired credits are not one quantity, so there is no grand total; nor are units: a
 * status's amount is one total per currency or credit type (UnitList), and one counted
 * from too many records to count exactly reads "≈".
 */
import { Badge, Table, VisuallyHidden } from '@mantine/core';
import { formatCount, formatUnitTotals } from './format';
import { fieldOf, totalsFormatOf } from './kinds';
import { statusColor } from './status';
import type { Kind, StatusTotals } from './types';
import { UnitList } from './UnitList';
import classes from './records.module.css';

export function StatusTotalsTable({ totals, kind, what }: { totals: StatusTotals; kind?: Kind; what: string }) {
  if (totals.groups.length === 0) return null;
  const choices = fieldOf(kind, totals.field)?.choices;
  const how = totalsFormatOf(kind, totals.amount, totals.type);
  const caption = `${totals.amountLabel} by ${totals.label.toLowerCase()}`;
  return (
    <div className={classes.tableWrap} data-testid="status-totals">
      <Table className={classes.table} verticalSpacing={4} horizontalSpacing="sm" w="auto">
        <caption>
          <VisuallyHidden>{`${caption}, over all ${what}`}</VisuallyHidden>
        </caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{totals.label}</Table.Th>
            <Table.Th scope="col" className={classes.numeric}>
              Entries
            </Table.Th>
            <Table.Th scope="col" className={classes.numeric}>
              {totals.amountLabel}
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {totals.groups.map((g) => (
            <Table.Tr key={g.status} data-testid="status-total">
              <Table.Th scope="row" fw="normal">
                {g.status ? (
                  <Badge variant="light" radius="sm" size="sm" className={classes.statusBadge} color={statusColor(g.status, choices)}>
                    {g.status}
                  </Badge>
                ) : (
                  'No status'
                )}
              </Table.Th>
              <Table.Td className={classes.numeric}>{`${g.estimated ? '≈ ' : ''}${formatCount(g.count)}`}</Table.Td>
              <Table.Td className={classes.numeric}>
                <UnitList texts={formatUnitTotals(g.totals, how).map((t) => (g.estimated ? `≈ ${t}` : t))} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </div>
  );
}
