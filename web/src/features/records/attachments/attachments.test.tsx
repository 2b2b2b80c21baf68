import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '../../../lib/session/store';
import RecordTabPage from '../RecordTabPage';
import RecordViewPage from '../RecordViewPage';
import { fakeApi, json, kinds, problem, projectKind, renderRoutes, signIn, type FakeApi } from '../testing';
import type { FileInfo, RecordDetail, TabRows } from '../types';

const routes = [
  {
    path: '/project',
    handle: { model: 'project' },
    children: [
      {
        path: 'view',
        handle: { isView: true },
        Component: RecordViewPage,
        children: [
          { path: 'files', handle: { tab: 'files' }, Component: RecordTabPage },
          { path: ':tab', Component: RecordTabPage },
        ],
      },
    ],
  },
];

const record: RecordDetail = {
  id: 42,
  type: 'project',
  title: 'Wetland restoration',
  code: 'PRJ-000042',
  status: 'Active',
  erpUrl: null,
  groups: [{ label: 'Summary', fields: [{ name: 'companyname', label: 'Project name', type: 'text', value: 'Wetland restoration' }] }],
  tabs: projectKind.tabs,
  related: [],
  version: '2026-11-22T10:00:00Z',
  write: { state: '' },
};

const noteColumns = [
  { name: 'author', label: 'Author', type: 'text' as const, sortable: false },
  { name: 'date', label: 'Date', type: 'text' as const, sortable: false },
  { name: 'text', label: 'Text', type: 'text' as const, sortable: false },
];
const firstNote = { id: 1, author: 'Pete', date: '2026-11-01', text: 'Kick-off done.' };

let api: FakeApi;
let notes: TabRows;
let files: FileInfo[];

/**
 * An XMLHttpRequest that answers through the fake fetch (so the API fake serves uploads
 * too), reporting the body as sent in two halves.
 */
class FakeXHR {
  status = 0;
  statusText = '';
  response: Blob | null = null;
  responseType = '';
  upload: { onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  private method = 'GET';
  private url = '';
  private headers: Record<string, string> = {};
  private answerHeaders = '';
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  getAllResponseHeaders() {
    return this.answerHeaders;
  }
  abort() {}
  send(body: FormData | null) {
    const size = (body?.get('file') as File | null)?.size ?? 0;
    this.upload.onprogress?.({ loaded: size / 2, total: size, lengthComputable: true });
    this.upload.onprogress?.({ loaded: size, total: size, lengthComputable: true });
    void fetch(this.url, { method: this.method, headers: this.headers, body }).then(async (response) => {
      this.status = response.status;
      this.statusText = response.statusText;
      this.response = await response.blob();
      this.answerHeaders = [...response.headers].map(([k, v]) => `${k}: ${v}`).join('\r\n');
      this.onload?.();
    });
  }
}

beforeEach(() => {
  signIn();
  api = fakeApi();
  notes = { columns: noteColumns, rows: [firstNote] };
  files = [{ id: 9, name: 'site plan.pdf', size: 20480, contentType: 'application/pdf', modified: '2026-11-01T10:00:00Z' }];
  vi.stubGlobal('XMLHttpRequest', FakeXHR);
  api.on('GET /netsuite/portal-record', (url) => {
    const tab = url.searchParams.get('tab');
    if (tab === 'notes') return json({ data: notes });
    if (tab === 'history') return json({ data: { columns: [], rows: [] } });
    return json({ data: record });
  });
  api.on('GET /netsuite/portal-file', () => json({ data: files }));
});

afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.getState().clearSession();
});

const noteCalls = () => api.calls.filter((c) => c.method === 'POST' && c.path === '/netsuite/portal-note');
const uploadCalls = () => api.calls.filter((c) => c.method === 'POST' && c.path === '/netsuite/portal-file');

describe('Add note', () => {
  it('adds a note: sent with an Idempotency-Key, shown in the tab, the box emptied', async () => {
    const user = userEvent.setup();
    api.on('POST /netsuite/portal-note', (_url, init) => {
      const { note } = JSON.parse(String(init?.body)) as { note: string };
      notes = { columns: noteColumns, rows: [firstNote, { id: 2, author: 'Ada Admin', date: '2026-11-22', text: note }] };
      return json({ data: notes }, 201);
    });
    renderRoutes(routes, '/project/view/notes?id=42');
    expect(await screen.findByText('Kick-off done.', {}, { timeout: 5000 })).toBeInTheDocument();
    const box = screen.getByRole('textbox', { name: 'New note' });
    await user.type(box, '  Walked the site.{Enter}Culverts clear.  ');
    expect(screen.getByText('32 / 4,000 characters')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add note' }));

    expect(await screen.findByText(/Culverts clear\./)).toBeInTheDocument();
    expect(noteCalls()).toHaveLength(1);
    expect(noteCalls()[0]?.body).toEqual({ note: 'Walked the site.\nCulverts clear.' });
    expect(noteCalls()[0]?.params.get('type')).toBe('project');
    expect(noteCalls()[0]?.params.get('id')).toBe('42');
    expect(noteCalls()[0]?.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(box).toHaveValue('');
    expect(screen.getByText('Note added.')).toBeInTheDocument();
  });

  it('keeps the text when the note fails, and sends it again with the same key', async () => {
    const user = userEvent.setup();
    let tries = 0;
    api.on('POST /netsuite/portal-note', () => {
      tries += 1;
      if (tries === 1) return problem(503, 'The database is busy. Please try again.');
      return json({ data: { columns: noteColumns, rows: [firstNote, { id: 2, author: 'Ada Admin', date: '2026-11-22', text: 'Second try.' }] } }, 201);
    });
    renderRoutes(routes, '/project/view/notes?id=42');
    const box = await screen.findByRole('textbox', { name: 'New note' }, { timeout: 5000 });
    await user.type(box, 'Second try.');
    await user.click(screen.getByRole('button', { name: 'Add note' }));
    expect(await screen.findByText('The database is busy. Please try again.')).toBeInTheDocument();
    expect(box).toHaveValue('Second try.');
    expect(box).toHaveAttribute('aria-invalid', 'true');

    await user.click(screen.getByRole('button', { name: 'Add note' }));
    expect(await screen.findByText('Note added.')).toBeInTheDocument();
    const [first, second] = noteCalls();
    expect(second?.headers.get('Idempotency-Key')).toBe(first?.headers.get('Idempotency-Key'));
  });

  it('checks the note before sending it, and shows the server’s word on it', async () => {
    const user = userEvent.setup();
    api.on('POST /netsuite/portal-note', () => problem(422, 'Please correct the note.', [{ field: 'note', message: 'Remove the control characters (line breaks and tabs are fine).' }]));
    renderRoutes(routes, '/project/view/notes?id=42');
    await user.click(await screen.findByRole('button', { name: 'Add note' }, { timeout: 5000 }));
    expect(await screen.findByText('Write the note first.')).toBeInTheDocument();
    expect(noteCalls()).toHaveLength(0);
    await user.type(screen.getByRole('textbox', { name: 'New note' }), 'x');
    expect(screen.queryByText('Write the note first.')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add note' }));
    expect(await screen.findByText('Remove the control characters (line breaks and tabs are fine).')).toBeInTheDocument();
  });

  it('is not offered to a role that may not edit the kind', async () => {
    api.on('GET /kinds', () => json({ data: kinds.map((k) => ({ ...k, canEdit: false })) }));
    renderRoutes(routes, '/project/view/notes?id=42');
    expect(await screen.findByText('Kick-off done.', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'New note' })).not.toBeInTheDocument();
  });
});

describe('Upload file', () => {
  const fileInput = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;

  it('uploads a file with its progress, then lists it; in NetSuite mode as on its way', async () => {
    const user = userEvent.setup();
    api.on('POST /netsuite/portal-file', (_url, init) => {
      const sent = (init?.body as FormData).get('file') as File;
      const added: FileInfo = { id: 2 ** 52 + 5, name: sent.name, size: sent.size, contentType: 'application/pdf', modified: '2026-11-22T10:00:00Z', write: { state: 'pending' } };
      files = [...files, added];
      return json({ data: added }, 201);
    });
    renderRoutes(routes, '/project/view/files?id=42');
    expect(await screen.findByRole('button', { name: 'Download site plan.pdf' }, { timeout: 5000 })).toBeInTheDocument();
    await user.upload(fileInput(), new File(['%PDF-1.7 plan'], 'plan.pdf', { type: 'application/pdf' }));
    await user.click(screen.getByRole('button', { name: 'Upload file' }));

    expect(await screen.findByText('plan.pdf is attached; it is on its way to NetSuite.')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Download plan.pdf' })).toBeInTheDocument();
    expect(screen.getByText('On its way to NetSuite')).toBeInTheDocument();
    expect(uploadCalls()).toHaveLength(1);
    expect(uploadCalls()[0]?.params.get('type')).toBe('project');
    expect(uploadCalls()[0]?.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(uploadCalls()[0]?.headers.get('Authorization')).toBe('Bearer tok');
  });

  it('refuses a file it cannot attach before sending it, and keeps a refused one for another try', async () => {
    const user = userEvent.setup({ applyAccept: false });
    let tries = 0;
    api.on('POST /netsuite/portal-file', () => {
      tries += 1;
      if (tries === 1) return problem(422, 'This file cannot be attached.', [{ field: 'file', message: 'plan.pdf is not a PDF, as its name says: attach the file itself.' }]);
      return json({ data: { id: 10, name: 'plan.pdf', size: 4, contentType: 'application/pdf', modified: '2026-11-22T10:00:00Z' } }, 201);
    });
    renderRoutes(routes, '/project/view/files?id=42');
    await screen.findByRole('button', { name: 'Download site plan.pdf' }, { timeout: 5000 });
    await user.upload(fileInput(), new File(['MZ'], 'setup.exe'));
    expect(screen.getByText(/setup\.exe cannot be attached: attach a file ending in \.pdf/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload file' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Upload file' }));
    expect(uploadCalls()).toHaveLength(0);
    await user.upload(fileInput(), new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'big.pdf'));
    expect(screen.getByText('big.pdf is larger than 5 MB: attach a file of at most 5 MB.')).toBeInTheDocument();

    await user.upload(fileInput(), new File(['MZ..'], 'plan.pdf'));
    await user.click(screen.getByRole('button', { name: 'Upload file' }));
    expect(await screen.findByText('plan.pdf is not a PDF, as its name says: attach the file itself.')).toBeInTheDocument();
    // The chosen file stays for another try, with the same key.
    expect(screen.getByText('plan.pdf')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Upload file' }));
    expect(await screen.findByText('plan.pdf is attached.')).toBeInTheDocument();
    await waitFor(() => expect(uploadCalls()).toHaveLength(2));
    expect(uploadCalls()[1]?.headers.get('Idempotency-Key')).toBe(uploadCalls()[0]?.headers.get('Idempotency-Key'));
  });

  it('shows a file NetSuite refused, with its words', async () => {
    files = [{ id: 11, name: 'scan.png', size: 100, contentType: 'image/png', modified: '2026-11-22T10:00:00Z', write: { state: 'failed', error: 'Please enter value(s) for: Folder' } }];
    renderRoutes(routes, '/project/view/files?id=42');
    expect(await screen.findByText('Refused by NetSuite', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText('Please enter value(s) for: Folder')).toBeInTheDocument();
  });
});
