import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { billingKind, fakeApi, json, problem, projectKind, renderRoutes, role, type FakeApi } from '../features/records/testing';
import { resetAppStore, useAppStore } from '../lib/appState';
import { useSessionStore } from '../lib/session/store';
import { publishRouteTable } from '../lib/routeTable';
import { routes as appRoutes } from './routes';
import { attachmentProblem, MAX_ATTACHMENT, pageCameFrom, pageTitle, recheckFeedback, sentText, validateFeedback } from '../features/feedback/feedback';
import FeedbackPage from '../features/feedback/FeedbackPage';

const routes = [{ path: '/feedback', Component: FeedbackPage }];
// As the app's router does when it is made.
publishRouteTable(appRoutes);

function signInWith(permissions: string[]) {
  const withPerms = { ...role, permissions };
  useSessionStore.getState().setSession({
    token: 'tok',
    refreshToken: 'ref',
    tokenTiming: { issuedAt: Date.now(), expiresAt: Date.now() + 3_600_000 },
    user: { id: 1, email: 'ada@example.com', fullName: 'Ada Admin', roles: [withPerms] },
    currentRole: withPerms,
  });
}

const png = (size = 68) => new File([new Uint8Array(size)], 'screen.png', { type: 'image/png' });

let api: FakeApi;
let sent: FormData | null;

beforeEach(() => {
  signInWith(['feedback.create']);
  resetAppStore();
  api = fakeApi();
  sent = null;
  api.on('POST /feedback', (_url, init) => {
    sent = init?.body as FormData;
    return json({ data: { id: 7, category: sent.get('category'), message: sent.get('message'), page: sent.get('page'), fileName: (sent.get('attachment') as File | null)?.name, erpState: '' } }, 201);
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.getState().clearSession();
});

describe('feedback rules', () => {
  it('checks an attachment’s size and type', () => {
    expect(attachmentProblem(png())).toBeNull();
    expect(attachmentProblem({ name: 'a.png', size: 0, type: 'image/png' })).toBe('The attachment is empty.');
    expect(attachmentProblem({ name: 'a.png', size: MAX_ATTACHMENT + 1, type: 'image/png' })).toBe('The attachment is larger than 5 MB.');
    expect(attachmentProblem({ name: 'a.exe', size: 10, type: 'application/x-msdownload' })).toMatch(/Attach a screenshot/);
    expect(attachmentProblem({ name: 'notes.TXT', size: 10, type: '' })).toBeNull();
    expect(attachmentProblem({ name: 'notes.zip', size: 10, type: '' })).toMatch(/Attach a screenshot/);
  });

  it('checks category, message and page', () => {
    expect(validateFeedback({ category: '', message: '  ', page: 'project/list', attachment: null })).toEqual({
      category: 'Choose a category.',
      message: 'Write a message.',
      page: 'The page must be a path of the portal, such as /project/list.',
    });
    expect(validateFeedback({ category: 'bug', message: 'x'.repeat(5001), page: '', attachment: null }).message).toMatch(/5,000/);
    expect(validateFeedback({ category: 'idea', message: 'Hi', page: '/project/list', attachment: png() })).toEqual({});
  });

  it('clears a problem as soon as it is fixed, and keeps quiet about fields not yet sent', () => {
    const shown = validateFeedback({ category: '', message: '', page: '', attachment: null });
    expect(recheckFeedback({ category: 'bug', message: '', page: '', attachment: null }, shown)).toEqual({ message: 'Write a message.' });
    expect(recheckFeedback({ category: 'bug', message: 'Hi', page: '', attachment: null }, shown)).toEqual({});
    // A field never complained about stays quiet while it is being typed.
    expect(recheckFeedback({ category: '', message: '', page: 'proj', attachment: null }, { category: 'Choose a category.' })).toEqual({ category: 'Choose a category.' });
    // The server's word on the form stays until the next send.
    expect(recheckFeedback({ category: 'bug', message: 'Hi', page: '', attachment: null }, { form: 'Too many requests.' })).toEqual({ form: 'Too many requests.' });
  });

  it('says what was sent in words', () => {
    expect(sentText({ category: 'bug', fileName: 'report-view.png' })).toBe('Thanks — your report “Something is broken” was sent with 1 attachment (report-view.png).');
    expect(sentText({ category: 'idea' })).toBe('Thanks — your report “An idea” was sent.');
    expect(sentText({ category: 'unknown' })).toBe('Thanks — your feedback was sent.');
  });

  it('names the page to go back to by its title', () => {
    const ledger = { ...billingKind, name: 'creditledger', route: 'creditledger', label: 'Credit ledger', plural: 'Credit ledger' };
    const kinds = [projectKind, ledger];
    expect(pageTitle('/creditledger/list', appRoutes, kinds)).toBe('Credit ledger');
    expect(pageTitle('/project/list?filter=x', appRoutes, kinds)).toBe('Projects');
    expect(pageTitle('/', appRoutes, kinds)).toBe('Dashboard');
    expect(pageTitle('/audit', appRoutes, kinds)).toBe('Audit log');
    expect(pageTitle('/project/view?id=42', appRoutes, kinds, (kind, id) => (kind === 'project' && id === 42 ? 'Wetland restoration' : undefined))).toBe('Wetland restoration');
    expect(pageTitle('/project/view/billing?id=43', appRoutes, kinds, () => undefined)).toBe('Project');
    // A kind the role does not have: no title, the path stays.
    expect(pageTitle('/vendor/list', appRoutes, kinds)).toBeUndefined();
  });

  it('prefills the page from the from parameter, else a same-origin referrer', () => {
    const origin = 'http://portico.test';
    expect(pageCameFrom(new URLSearchParams('from=/project/list?x=1'), '', origin)).toBe('/project/list?x=1');
    expect(pageCameFrom(new URLSearchParams('from=//evil.test'), `${origin}/invoice/list`, origin)).toBe('/invoice/list');
    expect(pageCameFrom(new URLSearchParams(), 'https://elsewhere.test/x', origin)).toBe('');
    expect(pageCameFrom(new URLSearchParams(), `${origin}/feedback`, origin)).toBe('');
    // Issue 36: a target with control characters is no page of the portal (the server refuses it).
    expect(pageCameFrom(new URLSearchParams('redirect=/%09/evil.example'), '', origin)).toBe('');
  });
});

describe('feedback form', () => {
  it('offers the page it came from by its title, then the pages of the menu by name: no path to type', async () => {
    const leaf = (text: string, href: string) => ({ text, iconCss: '', href, separator: false, items: [] });
    useSessionStore.getState().setMenu([leaf('Dashboard', '/'), { ...leaf('Reports', ''), items: [leaf('Saved reports', '/reports/list')] }]);
    renderRoutes(routes, '/feedback?from=/audit');
    const select = screen.getByLabelText(/^Page/);
    expect(select).toHaveValue('/audit');
    const options = within(select)
      .getAllByRole('option')
      .map((o) => [o.getAttribute('value'), o.textContent]);
    expect(options).toEqual([
      ['', 'No page in particular'],
      ['/audit', 'Audit log (where you came from)'],
      ['/', 'Dashboard'],
      ['/reports/list', 'Saved reports (Reports)'],
    ]);
  });

  it('shows inline errors, keeps the input, and sends once fixed', async () => {
    // The chooser offers the accepted types only, but a user can pick any file.
    const user = userEvent.setup({ applyAccept: false });
    renderRoutes(routes, '/feedback?from=/project/list');
    expect(screen.getByLabelText(/^Page/)).toHaveValue('/project/list');

    await user.type(screen.getByLabelText(/^Message/), 'The list is slow');
    await user.upload(screen.getByLabelText(/^Attachment/), new File(['MZ'], 'tool.exe', { type: 'application/x-msdownload' }));
    expect(await screen.findByText(/Attach a screenshot/)).toBeInTheDocument();
    expect(screen.getByLabelText(/^Attachment/)).toHaveAttribute('aria-invalid', 'true');

    await user.click(screen.getByRole('button', { name: 'Send feedback' }));
    expect(await screen.findByText('Choose a category.')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Category/)).toHaveFocus();
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);
    expect(screen.getByLabelText(/^Message/)).toHaveValue('The list is slow');

    await user.selectOptions(screen.getByLabelText(/^Category/), 'bug');
    // Fixed, so no longer red: at once, not on the next send.
    expect(screen.queryByText('Choose a category.')).not.toBeInTheDocument();
    expect(screen.getByLabelText(/^Category/)).not.toHaveAttribute('aria-invalid', 'true');
    await user.upload(screen.getByLabelText(/^Attachment/), png());
    await waitFor(() => expect(screen.queryByText(/Attach a screenshot/)).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Send feedback' }));

    expect(await screen.findByTestId('feedback-thanks')).toHaveTextContent('Thanks — your report “Something is broken” was sent with 1 attachment (screen.png).');
    expect(screen.getByRole('link', { name: 'Back to Projects' })).toHaveAttribute('href', '/project/list');
    expect(sent?.get('category')).toBe('bug');
    expect(sent?.get('message')).toBe('The list is slow');
    expect(sent?.get('page')).toBe('/project/list');
    expect((sent?.get('attachment') as File).name).toBe('screen.png');
    expect(useAppStore.getState().alert).toMatchObject({ type: 'alert-success', title: 'Feedback sent' });
  });

  it('clears “Write a message.” as soon as a message is written', async () => {
    const user = userEvent.setup();
    renderRoutes(routes, '/feedback');
    await user.click(screen.getByRole('button', { name: 'Send feedback' }));
    expect(await screen.findByText('Write a message.')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^Message/), 'H');
    expect(screen.queryByText('Write a message.')).not.toBeInTheDocument();
    expect(screen.getByText('Choose a category.')).toBeInTheDocument();
    // Emptied again: quiet until the next send, which says so again.
    await user.clear(screen.getByLabelText(/^Message/));
    expect(screen.queryByText('Write a message.')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send feedback' }));
    expect(await screen.findByText('Write a message.')).toBeInTheDocument();
  });

  it('shows the server’s field errors on their fields and keeps the input', async () => {
    api.on('POST /feedback', () => problem(422, 'Please correct the highlighted fields.', [{ field: 'attachment', message: 'Attach a screenshot (PNG, JPEG, GIF, WebP), a PDF or a text file.' }]));
    const user = userEvent.setup();
    renderRoutes(routes, '/feedback');
    await user.selectOptions(screen.getByLabelText(/^Category/), 'idea');
    await user.type(screen.getByLabelText(/^Message/), 'Dark mode');
    await user.upload(screen.getByLabelText(/^Attachment/), png());
    await user.click(screen.getByRole('button', { name: 'Send feedback' }));
    expect(await screen.findByText(/Attach a screenshot/)).toBeInTheDocument();
    expect(screen.getByLabelText(/^Message/)).toHaveValue('Dark mode');
    expect(screen.queryByTestId('feedback-thanks')).not.toBeInTheDocument();
  });

  it('tells a role without the permission why the form is not there', () => {
    signInWith([]);
    renderRoutes(routes, '/feedback');
    expect(screen.getByTestId('forbidden')).toHaveTextContent('may not see the feedback form');
    expect(screen.queryByRole('button', { name: 'Send feedback' })).not.toBeInTheDocument();
  });
});
