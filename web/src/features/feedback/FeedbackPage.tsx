/**
 * /feedback: the feedback form (SPEC §2). Category, message, the page it is about
 * (where the user came from, or any page of their menu) and an optional attachment (a
 * screenshot, PDF or text file up to 5 MB). Problems show next to their fields, from the
 * client's checks or the server's 422, and the input stays; once sent, a success alert
 * and a thank-you replace the form.
 */
import { Alert, Button, Group, Input, NativeSelect, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { paths } from '../../lib/paths';
import type { MenuItem } from '../../lib/session';
import { routeTable } from '../../lib/routeTable';
import { formatBytes, formatCount, recordName, kindsQuery, recordQuery, RecordErrorBoundary } from '../records';
import { useAppStore } from '../../lib/appState';
import {
  ATTACHMENT_ACCEPT,
  FEEDBACK_CATEGORIES,
  MAX_MESSAGE,
  attachmentProblem,
  feedbackServerErrors,
  pageCameFrom,
  pageTitle,
  recheckFeedback,
  sendFeedback,
  sentText,
  validateFeedback,
  type FeedbackCategory,
  type FeedbackErrors,
  type FeedbackForm,
  type Submission,
} from './feedback';
import { RequirePermission } from '../../components/RequirePermission';
import { goToOptions, useMenuItems } from '../menu';

export const ErrorBoundary = RecordErrorBoundary;

const FIELD_ORDER = ['category', 'message', 'page', 'attachment'] as const;

/**
 * What the Page field offers: no page in particular, the page the form was opened from
 * (named by its title), then every page of the role's menu, named as the menu names them.
 */
function pageChoices(current: string, menu: readonly MenuItem[], titleOf: (path: string) => string | undefined) {
  const pages = goToOptions(menu).flatMap((o) => (o.target.kind === 'internal' ? [{ value: o.target.to, label: o.detail && o.detail !== o.name ? `${o.name} (${o.detail})` : o.name }] : []));
  const unique = pages.filter((p, i) => pages.findIndex((q) => q.value === p.value) === i);
  const choices = [{ value: '', label: 'No page in particular' }];
  if (current && !unique.some((p) => p.value === current)) choices.push({ value: current, label: `${titleOf(current) ?? current} (where you came from)` });
  return [...choices, ...unique];
}

export default function FeedbackPage() {
  return (
    <RequirePermission permission="feedback.create" title="Feedback" what="the feedback form">
      <FeedbackFormPage />
    </RequirePermission>
  );
}

function FeedbackFormPage() {
  const [search] = useSearchParams();
  const raiseAlert = useAppStore((s) => s.raiseAlert);
  const blank = (): FeedbackForm => ({ category: '', message: '', page: pageCameFrom(search, document.referrer, window.location.origin), attachment: null });
  const [form, setForm] = useState<FeedbackForm>(blank);
  const [errors, setErrors] = useState<FeedbackErrors>({});
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState<Submission | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const queryClient = useQueryClient();
  const kinds = useQuery(kindsQuery());
  const menu = useMenuItems();
  /** Applies an edit; a problem shown on the form goes as soon as it is fixed. */
  const set = (patch: Partial<FeedbackForm>) => {
    const next = { ...form, ...patch };
    setForm(next);
    setErrors((shown) => recheckFeedback(next, shown));
  };

  function chooseFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0] ?? null;
    set({ attachment: file });
    // An attachment is checked as soon as it is chosen, not only when sent.
    setErrors((e) => ({ ...e, attachment: (file && attachmentProblem(file)) ?? undefined }));
  }

  function clearFile() {
    set({ attachment: null });
    if (fileRef.current) fileRef.current.value = '';
  }

  function focusFirstProblem(found: FeedbackErrors) {
    const first = FIELD_ORDER.find((f) => found[f]);
    if (first) document.getElementById(`feedback-${first}`)?.focus();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problems = validateFeedback(form);
    setErrors(problems);
    if (Object.keys(problems).length > 0) {
      focusFirstProblem(problems);
      return;
    }
    setSending(true);
    try {
      const submission = await sendFeedback(form);
      setSent(submission);
      raiseAlert({ type: 'alert-success', title: 'Feedback sent', message: 'Thank you: your feedback reached the portal team.' });
    } catch (error) {
      const found = feedbackServerErrors(error);
      setErrors(found);
      focusFirstProblem(found);
    } finally {
      setSending(false);
    }
  }

  function again() {
    setForm(blank());
    setErrors({});
    setSent(null);
  }

  if (sent) {
    const back = form.page.trim() || paths.home;
    const backTitle = pageTitle(back, routeTable(), kinds.data, (kind, id) => recordName(queryClient.getQueryData(recordQuery(kind, id).queryKey))) ?? back;
    return (
      <Stack gap="md" maw={720}>
        <Title order={1}>Feedback</Title>
        <Paper withBorder radius="md" p="lg" data-testid="feedback-thanks">
          <Stack gap="xs">
            <Title order={2} size="h3">
              Thank you
            </Title>
            <Text>{sentText(sent)} The portal team reads every message.</Text>
            <Group gap="sm" mt="xs">
              <Button onClick={again}>Send more feedback</Button>
              <Button component={Link} to={back} variant="default">
                Back to {backTitle}
              </Button>
            </Group>
          </Stack>
        </Paper>
      </Stack>
    );
  }

  const messageLength = [...form.message.trim()].length;
  const attachmentError = errors.attachment;
  return (
    <Stack gap="md" maw={720}>
      <div>
        <Title order={1}>Feedback</Title>
        <Text c="dimmed">Tell the portal team what is broken, what could be better or what you would like to know.</Text>
      </div>
      <form onSubmit={(e) => void submit(e)} noValidate aria-label="Send feedback">
        <Stack gap="md">
          {errors.form && (
            <Alert color="red" variant="light" title="The feedback was not sent" role="alert">
              {errors.form}
            </Alert>
          )}
          <NativeSelect
            id="feedback-category"
            label="Category"
            required
            value={form.category}
            data={[{ value: '', label: 'Choose a category' }, ...FEEDBACK_CATEGORIES]}
            onChange={(e) => set({ category: e.currentTarget.value as FeedbackCategory | '' })}
            error={errors.category}
          />
          <Textarea
            id="feedback-message"
            label="Message"
            required
            rows={6}
            resize="vertical"
            value={form.message}
            onChange={(e) => set({ message: e.currentTarget.value })}
            error={errors.message}
            description={`${formatCount(messageLength)} of ${formatCount(MAX_MESSAGE)} characters`}
          />
          <NativeSelect
            id="feedback-page"
            label="Page"
            description="The portal page your feedback is about."
            value={form.page}
            data={pageChoices(form.page, menu, (path) => pageTitle(path, routeTable(), kinds.data))}
            onChange={(e) => set({ page: e.currentTarget.value })}
            error={errors.page}
          />
          <Input.Wrapper
            id="feedback-attachment"
            label="Attachment"
            description="Optional: a screenshot (PNG, JPEG, GIF, WebP), a PDF or a text file, up to 5 MB."
            error={attachmentError}
          >
            <Group gap="sm" mt={4}>
              <input
                ref={fileRef}
                id="feedback-attachment"
                type="file"
                accept={ATTACHMENT_ACCEPT}
                onChange={chooseFile}
                aria-invalid={!!attachmentError}
                aria-describedby={`feedback-attachment-description${attachmentError ? ' feedback-attachment-error' : ''}`}
              />
              {form.attachment && (
                <>
                  <Text size="sm" c="dimmed">
                    {formatBytes(form.attachment.size)}
                  </Text>
                  <Button size="compact-sm" variant="subtle" onClick={clearFile}>
                    Remove attachment
                  </Button>
                </>
              )}
            </Group>
          </Input.Wrapper>
          <Group gap="sm">
            <Button type="submit" loading={sending}>
              Send feedback
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
