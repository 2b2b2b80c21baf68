/**
 * The feedback form's model and calls (`POST /api/v1/feedback`, multipart), and the
 * administrators' view of what was sent (`GET /api/v1/feedback`, attachments). The
 * client checks what the server checks, so most mistakes show before sending; the server
 * judges an attachment's type from its bytes, which the client cannot, so its 422 field
 * errors show on the same fields.
 */
import { matchRoutes, type RouteObject } from 'react-router';
import { api } from '../../lib/api';
import { mergeRouteMeta } from '../../lib/meta';
import { isInAppPath, KIND_PARAM } from '../../lib/paths';
import { type Download, recordPageTitle, kindByRoute, recordIdOf, type Envelope, type Kind, download } from '../records';
import { fieldProblems } from '../reports';

export const FEEDBACK_CATEGORIES = [
  { value: 'bug', label: 'Something is broken' },
  { value: 'idea', label: 'An idea' },
  { value: 'question', label: 'A question' },
  { value: 'other', label: 'Something else' },
] as const;
export type FeedbackCategory = (typeof FEEDBACK_CATEGORIES)[number]['value'];

export const MAX_MESSAGE = 5000;
export const MAX_PAGE = 500;
export const MAX_ATTACHMENT = 5 * 1024 * 1024;

/** The attachments the server takes, by content type, and the file names that go with them. */
export const ATTACHMENT_TYPES: Record<string, readonly string[]> = {
  'image/png': ['.png'],
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/gif': ['.gif'],
  'image/webp': ['.webp'],
  'application/pdf': ['.pdf'],
  'text/plain': ['.txt', '.log'],
};

/** The file chooser's `accept`: every type and extension above. */
export const ATTACHMENT_ACCEPT = Object.entries(ATTACHMENT_TYPES)
  .flatMap(([type, exts]) => [type, ...exts])
  .join(',');

export interface FeedbackForm {
  category: FeedbackCategory | '';
  message: string;
  page: string;
  attachment: File | null;
}

export type FeedbackErrors = Partial<Record<'category' | 'message' | 'page' | 'attachment' | 'form', string>>;

/** What is wrong with a file as an attachment, or null: empty, over 5 MB, or not a screenshot, PDF or text file. */
export function attachmentProblem(file: Pick<File, 'name' | 'size' | 'type'>): string | null {
  if (file.size === 0) return 'The attachment is empty.';
  if (file.size > MAX_ATTACHMENT) return 'The attachment is larger than 5 MB.';
  const name = file.name.toLowerCase();
  const known = file.type ? file.type in ATTACHMENT_TYPES : Object.values(ATTACHMENT_TYPES).some((exts) => exts.some((ext) => name.endsWith(ext)));
  return known ? null : 'Attach a screenshot (PNG, JPEG, GIF, WebP), a PDF or a text file.';
}

/** Whether `page` may be sent as the page the feedback is about: empty, or a path of the portal. */
function pageProblem(page: string): string | null {
  return page.length > MAX_PAGE || (page !== '' && !page.startsWith('/')) ? 'The page must be a path of the portal, such as /project/list.' : null;
}

/** Checks the form as the server will; {} when it may be sent. */
export function validateFeedback(form: FeedbackForm): FeedbackErrors {
  const errors: FeedbackErrors = {};
  if (!FEEDBACK_CATEGORIES.some((c) => c.value === form.category)) errors.category = 'Choose a category.';
  const message = form.message.trim();
  if (!message) errors.message = 'Write a message.';
  else if ([...message].length > MAX_MESSAGE) errors.message = 'Keep the message under 5,000 characters.';
  const page = pageProblem(form.page.trim());
  if (page) errors.page = page;
  const attachment = form.attachment && attachmentProblem(form.attachment);
  if (attachment) errors.attachment = attachment;
  return errors;
}

/** The server's refusal as form errors: field errors on their fields, anything else on the form. */
export function feedbackServerErrors(error: unknown): FeedbackErrors {
  const out: FeedbackErrors = {};
  for (const { field, message } of fieldProblems(error)) {
    const key = (['category', 'message', 'page', 'attachment'] as const).find((f) => f === field) ?? 'form';
    out[key] = out[key] ? `${out[key]} ${message}` : message;
  }
  if (Object.keys(out).length === 0) out.form = error instanceof Error ? error.message : String(error);
  return out;
}

/**
 * The page the user came from, to prefill the form: the `from` (or `redirect`) parameter,
 * else the referring page when it is this portal (not the feedback form itself); "" when
 * unknown. Only in-app paths count.
 */
export function pageCameFrom(search: URLSearchParams, referrer: string, origin: string): string {
  const param = search.get('from') ?? search.get('redirect');
  if (param && isInAppPath(param)) return param;
  try {
    const url = new URL(referrer);
    if (url.origin === origin && !url.pathname.startsWith('/feedback') && url.pathname !== '/login') return url.pathname + url.search;
  } catch {
    // no referrer, or not a URL
  }
  return '';
}

/**
 * Re-checks, after an edit, only the fields that show a problem: a problem fixed goes at
 * once (and one still there keeps its current text); fields not yet complained about stay
 * quiet until the form is sent.
 */
export function recheckFeedback(form: FeedbackForm, shown: FeedbackErrors): FeedbackErrors {
  const now = validateFeedback(form);
  const next: FeedbackErrors = {};
  for (const key of Object.keys(shown) as (keyof FeedbackErrors)[]) {
    if (!shown[key]) continue;
    // The server's own word on a field (or the form) stands until the next send.
    if (key === 'form') next.form = shown.form;
    else if (now[key]) next[key] = now[key];
  }
  return next;
}

/** The label of a category ("Something is broken"), or undefined for an unknown value. */
export function categoryLabel(value: string): string | undefined {
  return FEEDBACK_CATEGORIES.find((c) => c.value === value)?.label;
}

/**
 * The thank-you sentence once sent: "Thanks — your report “Something is broken” was sent
 * with 1 attachment (screen.png)."
 */
export function sentText(sent: Pick<Submission, 'category' | 'fileName'>): string {
  const label = categoryLabel(sent.category);
  const what = label ? `your report “${label}”` : 'your feedback';
  const attachment = sent.fileName ? ` with 1 attachment (${sent.fileName})` : '';
  return `Thanks — ${what} was sent${attachment}.`;
}

/**
 * The title of the app page at `path` (a path with its query), as its tab shows it: a
 * record kind's page by the kind (its plural on a list), a record's page by the record's
 * name when `recordName` knows it, any other page by its route's title. Undefined when
 * no route of `routes` has a title for it.
 */
export function pageTitle(
  path: string,
  routes: RouteObject[],
  kinds: readonly Kind[] | undefined,
  recordName?: (kind: string, id: number) => string | undefined,
): string | undefined {
  let url: URL;
  try {
    url = new URL(path, 'http://portal.invalid');
  } catch {
    return undefined;
  }
  const matches = matchRoutes(routes, url.pathname);
  if (!matches) return undefined;
  const meta = mergeRouteMeta(matches.map((m) => ({ handle: m.route.handle as unknown })));
  const segment = matches.at(-1)?.params[KIND_PARAM];
  if (segment === undefined) return meta.title;
  const kind = kindByRoute(kinds, segment);
  if (!kind) return undefined;
  const id = recordIdOf(url.searchParams);
  const name = id !== null && (meta.isView || meta.isEdit) ? recordName?.(kind.name, id) : undefined;
  return recordPageTitle(kind, meta, name)[0];
}

/** One piece of feedback, as the server answers it. */
export interface Submission {
  id: number;
  at: string;
  userId: number;
  user: string;
  roleId: number;
  category: string;
  message: string;
  page: string;
  fileName?: string;
  fileType?: string;
  fileSize?: number;
  /** Forwarding to the ERP: "" done, "pending", "failed" (with erpError). */
  erpState: '' | 'pending' | 'failed';
  erpError?: string;
}

/** Sends the form as multipart/form-data (trimmed text; the attachment when chosen). */
export async function sendFeedback(form: FeedbackForm): Promise<Submission> {
  const body = new FormData();
  body.set('category', form.category);
  body.set('message', form.message.trim());
  body.set('page', form.page.trim());
  if (form.attachment) body.set('attachment', form.attachment, form.attachment.name);
  return (await api.post<Envelope<Submission>>('/feedback', body)).data;
}

/** The newest submissions (up to 500), for administrators. */
export async function fetchSubmissions(signal?: AbortSignal): Promise<Submission[]> {
  return (await api.get<Envelope<Submission[]>>('/feedback', { signal })).data;
}

export function downloadAttachment(id: number): Promise<Download> {
  return download(`/feedback/${id}/attachment`, {});
}
