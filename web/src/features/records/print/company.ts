/**
 * The company's own profile (`GET /api/v1/company`): the name, address and contact lines
 * its documents carry as their letterhead — on the printable sheet and in its PDF alike,
 * both through `letterhead`. With a NetSuite account it is the account's (the root
 * subsidiary's legal name and main address); a tenant without one reads as its name alone.
 */
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { recordsKey } from '../../../lib/queryKeys';
import type { Envelope } from '../types';

/** A postal address as the server keeps it (internal/company.Address). */
export interface CompanyAddress {
  /** Street lines, first to last. */
  lines: string[];
  city: string;
  /** State, province or region. */
  region: string;
  postalCode: string;
  /** An ISO 3166-1 alpha-2 code ("US"), or a country's name. */
  country: string;
}

/** The company as its documents name it (internal/company.Profile); "" for what is not known. */
export interface CompanyProfile {
  name: string;
  legalName: string;
  address: CompanyAddress;
  phone: string;
  email: string;
  /** Tax or registration number (an EIN, a VAT number). */
  taxId: string;
}

export async function fetchCompany(signal?: AbortSignal): Promise<CompanyProfile> {
  const answer = await api.get<Envelope<CompanyProfile>>('/company', { signal });
  return answer.data;
}

/** The company's profile; it changes seldom (an ERP pull, a new setup). */
export function companyQuery() {
  return queryOptions({
    queryKey: [...recordsKey(), 'company'] as const,
    queryFn: ({ signal }) => fetchCompany(signal),
    staleTime: 5 * 60_000,
  });
}

/** What a document's letterhead shows, as lines of text. */
export interface Letterhead {
  /** The legal name, else the name. */
  name: string;
  /** The postal address: street lines, then "City, Region Postal code", then the country. */
  address: string[];
  /** Phone, e-mail and the tax number, each with what it is ("Tax ID 93-4416207"). */
  contact: string[];
}

const regionNames = new Intl.DisplayNames(undefined, { type: 'region' });

/** A country code's name in the user's locale ("US" → "United States"); a name or unknown code as given. */
function countryName(country: string): string {
  if (!/^[A-Za-z]{2}$/.test(country)) return country;
  try {
    return regionNames.of(country.toUpperCase()) ?? country;
  } catch {
    return country;
  }
}

/** The postal address as lines: "2140 Riverbend Way", "Eugene, OR 97401", "United States". */
export function addressLines(address: CompanyAddress): string[] {
  const place = [address.city, [address.region, address.postalCode].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return [...address.lines, place, address.country ? countryName(address.country) : ''].filter((line) => line.trim() !== '');
}

/** The letterhead of a company's documents. */
export function letterhead(company: CompanyProfile): Letterhead {
  const contact = [company.phone && `Phone ${company.phone}`, company.email, company.taxId && `Tax ID ${company.taxId}`].filter(Boolean);
  return { name: company.legalName || company.name, address: addressLines(company.address), contact };
}
