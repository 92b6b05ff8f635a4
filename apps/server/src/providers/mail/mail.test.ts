import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { parseEml } from '../../test/mail.js';
import { createTestApp } from '../../test/helpers.js';
import { createMailer, MailQueue, renderEmail } from './index.js';

const silent = { info() {}, warn() {}, error() {}, debug() {} } as unknown as FastifyBaseLogger;
const content = renderEmail({
  heading: 'Hello Ada,',
  paragraphs: ['Your chapter quiz is ready. <script>not html</script> & friends — ünïcödé.'],
  action: { label: 'Open it', url: 'https://example.org/q?a=1&b=2' },
  footer: ['Small print.'],
});

describe('renderEmail', () => {
  it('says the same in both bodies and escapes the HTML', () => {
    expect(content.text).toContain('Hello Ada,');
    expect(content.text).toContain('<script>not html</script> & friends');
    expect(content.text).toContain('Open it: https://example.org/q?a=1&b=2');
    expect(content.html).toContain('&lt;script&gt;not html&lt;/script&gt; &amp; friends');
    expect(content.html).not.toContain('<script>');
    expect(content.html).toContain('href="https://example.org/q?a=1&amp;b=2"');
  });
});

describe('outbox adapter (default)', () => {
  it('writes each message as an .eml file with both bodies and logs where', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cw-mail-'));
    const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(32) });
    const logged: unknown[] = [];
    const log = { ...silent, info: (obj: unknown) => logged.push(obj) } as never;
    const mailer = createMailer(config, log);
    expect(mailer.kind).toBe('outbox');
    const sent = await mailer.send({ to: 'ada@example.org', subject: 'Quiz ready', ...content });
    const files = readdirSync(path.join(dataDir, 'outbox'));
    expect(files).toHaveLength(1);
    expect(sent.file).toBe(path.join(dataDir, 'outbox', files[0]!));
    expect(logged).toContainEqual(
      expect.objectContaining({ file: sent.file, to: 'ada@example.org' }),
    );
    const message = parseEml(readFileSync(sent.file!, 'utf8'));
    expect(message.to).toBe('ada@example.org');
    expect(message.header('From')).toBe('Chapterwise <no-reply@localhost>');
    expect(message.subject).toBe('Quiz ready');
    expect(message.text).toContain('ünïcödé');
    expect(message.raw).toContain('Content-Type: text/html');
    await mailer.close();
  });
});

describe('SMTP adapter (SMTP_URL) against a real SMTP server', () => {
  const received: Array<{ from: string; to: string[]; raw: string; user?: string }> = [];
  let server: SMTPServer;
  let port = 0;

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: false,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onAuth(auth, _session, callback) {
        if (auth.username === 'mailer' && auth.password === 's3cret pass') {
          callback(null, { user: auth.username });
        } else callback(new Error('Invalid username or password'));
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
            user: session.user as string | undefined,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('delivers a message with both bodies, authenticated', async () => {
    const config = loadConfig({
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'cw-mail-')),
      JWT_SECRET: 'x'.repeat(32),
      SMTP_URL: `smtp://mailer:${encodeURIComponent('s3cret pass')}@127.0.0.1:${port}`,
      MAIL_FROM: 'Chapterwise <hello@chapterwise.test>',
    });
    const mailer = createMailer(config, silent);
    expect(mailer.kind).toBe('smtp');
    await mailer.send({ to: 'grace@example.org', subject: 'Über SMTP', ...content });
    await mailer.close();
    expect(received).toHaveLength(1);
    const got = received[0]!;
    expect(got.user).toBe('mailer');
    expect(got.from).toBe('hello@chapterwise.test');
    expect(got.to).toEqual(['grace@example.org']);
    const message = parseEml(got.raw);
    expect(message.subject).toMatch(/=\?UTF-8\?/); // encoded word for "Über"
    expect(message.text).toContain('Your chapter quiz is ready.');
    expect(got.raw).toContain('Content-Type: text/html');
  });

  it('a refused login is an error for the caller; the queue logs it and goes on', async () => {
    const config = loadConfig({
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'cw-mail-')),
      JWT_SECRET: 'x'.repeat(32),
      SMTP_URL: `smtp://mailer:wrong@127.0.0.1:${port}`,
    });
    const mailer = createMailer(config, silent);
    await expect(mailer.send({ to: 'a@example.org', subject: 's', ...content })).rejects.toThrow();
    const errors: unknown[] = [];
    const queue = new MailQueue(mailer, {
      ...silent,
      error: (o: unknown) => errors.push(o),
    } as never);
    queue.sendLater({ to: 'a@example.org', subject: 's', ...content });
    await queue.close();
    expect(errors).toHaveLength(1);
  });

  it('the app sends reset emails through SMTP when SMTP_URL is set', async () => {
    const before = received.length;
    const t = await createTestApp({
      SMTP_URL: `smtp://mailer:${encodeURIComponent('s3cret pass')}@127.0.0.1:${port}`,
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/register',
      payload: {
        username: 'smtp_teacher',
        firstName: 'Sam',
        lastName: 'T',
        email: 'smtp-teacher@example.org',
        password: 'password123',
      },
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/sendpasswordresetemail/',
      payload: { email: 'smtp-teacher@example.org' },
    });
    expect(res.statusCode).toBe(200);
    await t.app.mail.idle();
    expect(received.length).toBe(before + 1);
    const message = parseEml(received.at(-1)!.raw);
    expect(message.text).toMatch(/http:\/\/localhost:3000\/reset\?token=[\w-]{43}/);
    await t.close();
  });
});
