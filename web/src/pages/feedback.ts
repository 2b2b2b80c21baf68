/**
 * The feedback form's model and calls (`POST /api/v1/feedback`, multipart), and the
 * administrators' view of what was sent (`GET /api/v1/feedback`, attachments). The
 * client checks what the server checks, so most mistakes show before sending; the server
 * judges an attachment's type from its bytes, which the client cannot, so its 422 field
 * errors show on the same fields.
 */
import { api } from '../api';
import type { Download } from '../records/api';
import type { Envelope } from '../records/types';
import { download } from '../records/api';
import { fieldProblems } from '../reports/http';

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
  if (param?.startsWith('/') && !param.startsWith('//')) return param;
  try {
    const url = new URL(referrer);
    if (url.origin === origin && !url.pathname.startsWith('/feedback') && url.pathname !== '/login') return url.pathname + url.search;
  } catch {
    // no referrer, or not a URL
  }
  return '';
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
