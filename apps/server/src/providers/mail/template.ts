import { PRODUCT_NAME } from '@chapterwise/shared';

export interface EmailContent {
  /** First line and heading. */
  heading: string;
  paragraphs: string[];
  /** A call to action: one button in HTML, the bare link in the text body. */
  action?: { label: string; url: string };
  /** Small print under the button (why you got this, how to stop it). */
  footer?: string[];
}

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/**
 * Builds both bodies of an email from the same content, so the plain-text part says exactly
 * what the HTML says. Inline styles only: mail clients ignore style sheets.
 */
export function renderEmail(content: EmailContent): { text: string; html: string } {
  const text = [
    content.heading,
    '',
    ...content.paragraphs.flatMap((p) => [p, '']),
    ...(content.action ? [`${content.action.label}: ${content.action.url}`, ''] : []),
    ...(content.footer ?? []).flatMap((p) => [p, '']),
    `— ${PRODUCT_NAME}`,
  ].join('\n');

  const paragraph = (p: string) =>
    `<p style="margin:0 0 16px;font-size:16px;line-height:1.6;color:#1c1917">${escapeHtml(p)}</p>`;
  const small = (p: string) =>
    `<p style="margin:0 0 8px;font-size:13px;line-height:1.5;color:#57534e">${escapeHtml(p)}</p>`;
  const button = content.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(content.action.url)}" style="display:inline-block;padding:12px 20px;border-radius:8px;background:#0f766e;color:#ffffff;font-weight:600;text-decoration:none">${escapeHtml(content.action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;line-height:1.5;color:#57534e">If the button does not work, copy this address into your browser:<br><a href="${escapeHtml(content.action.url)}" style="color:#0f766e;word-break:break-all">${escapeHtml(content.action.url)}</a></p>`
    : '';
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(content.heading)}</title></head>
<body style="margin:0;padding:24px;background:#fbfaf7;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif">
<div style="max-width:560px;margin:0 auto;padding:32px;background:#ffffff;border:1px solid #e2ded6;border-radius:12px">
<p style="margin:0 0 24px;font-weight:800;font-size:18px;color:#0f766e">${escapeHtml(PRODUCT_NAME)}</p>
<h1 style="margin:0 0 16px;font-size:22px;color:#1c1917">${escapeHtml(content.heading)}</h1>
${content.paragraphs.map(paragraph).join('\n')}
${button}
${(content.footer ?? []).map(small).join('\n')}
</div></body></html>`;
  return { text, html };
}
