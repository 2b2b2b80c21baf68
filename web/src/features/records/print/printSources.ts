/**
 * What a record's PDF is made from, read through the query cache the sheet on screen
 * filled: the company's profile, the parties' addresses and the lines. What is cached is
 * not asked again; a party whose record the role may not read goes without its address,
 * as on the sheet, and an unreadable company profile leaves the letterhead out.
 */
import type { QueryClient } from '@tanstack/react-query';
import { recordTabs } from '../kinds';
import { lineItemTabs } from '../lineitems/lineItems';
import { recordQuery, recordTabQuery } from '../queries';
import type { Kind, RecordDetail } from '../types';
import { companyQuery } from './company';
import type { PrintSources } from './printDocument';
import { partyAddress, partyAddressSource, printLayout } from './printLayout';

/** Loads the sources of `record`'s document (printDocument). Fails when its lines cannot be read. */
export async function loadPrintSources(queryClient: QueryClient, kind: Kind, kinds: readonly Kind[], record: RecordDetail): Promise<PrintSources> {
  const parties = printLayout(kind, record).parties;
  const [company, addresses, lines] = await Promise.all([
    queryClient.ensureQueryData(companyQuery()).catch(() => null),
    Promise.all(
      parties.map(async (entry) => {
        const source = partyAddressSource(entry, kinds);
        if (!source) return null;
        const party = await queryClient.ensureQueryData(recordQuery(source.kind.name, source.id)).catch(() => null);
        const address = party ? partyAddress(party, source.field) : '';
        return address ? ([entry.field.name, address] as const) : null;
      }),
    ),
    Promise.all(
      lineItemTabs(recordTabs(kind, record)).map(async (tab) => ({ tab, answer: await queryClient.ensureQueryData(recordTabQuery(kind.name, record.id, tab.name)) })),
    ),
  ]);
  return { kind, kinds, record, company, addresses: new Map(addresses.filter((a) => a !== null)), lines };
}
