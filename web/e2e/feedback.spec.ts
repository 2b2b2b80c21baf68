import { readFile } from 'node:fs/promises';
import { expect, test, type Download } from '@playwright/test';
import { ARTIFACTS, signIn, users, watchProblems } from './support';

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

test.describe('feedback', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, users.ada.email, users.ada.fullName);
  });

  test('send feedback with a screenshot; bad attachments are refused inline; administrators see it and the audit log has it', async ({ page }) => {
    test.setTimeout(60_000); // room for a retried download click (below)
    const problems = await watchProblems(page);
    const message = `The project list is slow (${Date.now()})`;

    await page.goto('/feedback?from=/project/list');
    await expect(page.getByLabel(/^Page/)).toHaveValue('/project/list');
    await page.getByLabel(/^Category/).selectOption('bug');
    await page.getByLabel(/^Message/).fill(message);
    const attachment = page.getByLabel(/^Attachment/);

    // Too big, then not a screenshot: refused next to the field, before sending.
    await attachment.setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(5 * 1024 * 1024 + 1) });
    await expect(page.getByText('The attachment is larger than 5 MB.')).toBeVisible();
    await attachment.setInputFiles({ name: 'tool.exe', mimeType: 'application/x-msdownload', buffer: Buffer.from('MZ') });
    await expect(page.getByText(/Attach a screenshot/)).toBeVisible();
    await expect(attachment).toHaveAttribute('aria-invalid', 'true');
    await page.getByRole('button', { name: 'Send feedback' }).click();
    await expect(page.getByText(/Attach a screenshot/)).toBeVisible();
    await expect(page.getByLabel(/^Message/)).toHaveValue(message);

    await attachment.setInputFiles({ name: 'screen.png', mimeType: 'image/png', buffer: PNG });
    await expect(page.getByText(/Attach a screenshot/)).toHaveCount(0);
    await page.screenshot({ path: `${ARTIFACTS}/feedback-form.png`, fullPage: true });
    await page.screenshot({ path: '/tmp/feedback-form.png', fullPage: true });
    await page.getByRole('button', { name: 'Send feedback' }).click();

    await expect(page.getByTestId('feedback-thanks')).toContainText('Thanks — your report “Something is broken” was sent with 1 attachment (screen.png).');
    await expect(page.getByRole('link', { name: 'Back to Projects' })).toBeVisible();
    await expect(page.getByText('Thank you: your feedback reached the portal team.')).toBeVisible();

    // The administrator sees it, with the attachment.
    await page.goto('/feedback/submissions');
    const row = page.getByTestId('submission-row').filter({ hasText: message });
    await expect(row).toContainText('Something is broken');
    await expect(row).toContainText('/project/list');
    // Under a loaded CI machine a click on the button was once followed by
    // no request at all (not reproduced on a quiet one): the click is tried
    // again then, and the file must still arrive whole.
    let download: Download | undefined;
    await expect(async () => {
      [download] = await Promise.all([
        page.waitForEvent('download', { timeout: 5_000 }),
        row.getByRole('button', { name: /screen\.png/ }).click(),
      ]);
    }).toPass({ timeout: 20_000 });
    if (!download) throw new Error('no download');
    expect(download.suggestedFilename()).toBe('screen.png');
    expect((await readFile((await download.path())!)).equals(PNG)).toBe(true);

    // And the audit log has the feedback event.
    await page.goto('/audit');
    await page.getByLabel('Event', { exact: true }).selectOption('feedback');
    const events = page.getByTestId('audit-row');
    await expect(events.first()).toContainText('Sent feedback');
    await expect(events.first()).toContainText('“Something is broken”');

    expect(await problems()).toEqual([]);
  });
});
