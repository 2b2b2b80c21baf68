import { describe, expect, it } from 'vitest';
import { dispositionFilename, listQuery, productPath, listConfigurationPath } from './api';

describe('record API helpers', () => {
  it('builds the paths from the configured ERP and product segments', () => {
    expect(productPath('-list')).toBe('/netsuite/portal-list');
    expect(productPath('-file')).toBe('/netsuite/portal-file');
    expect(listConfigurationPath()).toBe('/netsuite/listConfiguration');
  });

  it('sends dir only with sort', () => {
    expect(listQuery({ type: 'project', dir: 'desc' })).toMatchObject({ type: 'project', sort: undefined, dir: undefined });
    expect(listQuery({ type: 'project', sort: 'startdate' })).toMatchObject({ sort: 'startdate', dir: 'asc' });
  });

  it('reads the file name of a Content-Disposition header', () => {
    expect(dispositionFilename('attachment; filename=all-projects-2024-01-01.csv')).toBe('all-projects-2024-01-01.csv');
    expect(dispositionFilename('attachment; filename="site plan.pdf"')).toBe('site plan.pdf');
    expect(dispositionFilename('attachment; filename="a \\"b\\".txt"')).toBe('a "b".txt');
    expect(dispositionFilename("attachment; filename*=utf-8''Bericht%20%C3%BCber.pdf")).toBe('Bericht über.pdf');
    expect(dispositionFilename('attachment')).toBeNull();
    expect(dispositionFilename(null)).toBeNull();
  });
});
