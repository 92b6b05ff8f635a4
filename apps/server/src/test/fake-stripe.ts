import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A fake Stripe API for tests, over real HTTP: the real SDK is pointed at it (STRIPE_API_BASE).
 * It answers the calls billing makes (customers, Checkout Sessions, the portal, Connect Express
 * accounts and their links, balances) in Stripe's shapes, records every request as the form
 * Stripe receives, and keeps the state a destination charge touches: the Checkout Sessions it
 * made, the connected accounts, and each account's balance. `pay` does what a buyer paying a
 * session does at Stripe: the session is complete and a `transfer_data` share lands in the
 * destination account's pending balance; it answers the session object the
 * `checkout.session.completed` event carries.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The form-encoded body (or the query of a GET), flattened as Stripe's keys: `a[b][c]`. */
  form: Record<string, string>;
}

export interface FakeBalance {
  available: Array<{ amount: number; currency: string }>;
  pending: Array<{ amount: number; currency: string }>;
}

interface Session {
  id: string;
  form: Record<string, string>;
  status: 'open' | 'complete';
}

type Json = Record<string, unknown>;

export class FakeStripe {
  private server: Server | null = null;
  requests: RecordedRequest[] = [];
  /** Answer the next call to this path with an error (status, Stripe error body). */
  failNext: Record<string, number> = {};
  /** What connected accounts report (made or read from now on). */
  account = { charges_enabled: false, payouts_enabled: false, details_submitted: false };
  /** Each connected account's balance (`platform` is the platform's own); empty when unknown. */
  balances = new Map<string, FakeBalance>();
  private readonly sessions = new Map<string, Session>();
  private readonly accounts = new Set<string>();
  private counter = 0;

  /** Listens on a free port of 127.0.0.1 and answers the base URL for STRIPE_API_BASE. */
  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server!.close(resolve));
    this.server = null;
  }

  /** The recorded requests to one path, oldest first. */
  of(path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  /**
   * The buyer pays a session: it completes, and its destination charge's transfer lands in the
   * connected account's pending balance (as Stripe does until the payout schedule releases it).
   * Answers the completed session as `checkout.session.completed` carries it.
   */
  pay(sessionId: string, extra: Json = {}): Json {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`the fake Stripe made no session ${sessionId}`);
    if (session.status === 'complete') throw new Error(`${sessionId} is already paid`);
    session.status = 'complete';
    const form = session.form;
    const currency = form['line_items[0][price_data][currency]'] ?? 'usd';
    const amountTotal =
      Number(form['line_items[0][price_data][unit_amount]'] ?? 0) *
      Number(form['line_items[0][quantity]'] ?? 1);
    const destination = form['payment_intent_data[transfer_data][destination]'];
    if (destination) {
      const amount = Number(form['payment_intent_data[transfer_data][amount]'] ?? amountTotal);
      this.credit(destination, 'pending', amount, currency);
    }
    const metadata: Record<string, string> = {};
    for (const [key, value] of Object.entries(form)) {
      const match = /^metadata\[(.+)\]$/.exec(key);
      if (match) metadata[match[1]!] = value;
    }
    return {
      id: session.id,
      object: 'checkout.session',
      mode: form.mode,
      status: 'complete',
      payment_status: 'paid',
      amount_total: amountTotal,
      currency,
      customer: form.customer ?? null,
      client_reference_id: form.client_reference_id ?? null,
      payment_intent: `pi_${session.id}`,
      metadata,
      ...extra,
    };
  }

  private credit(account: string, kind: 'available' | 'pending', amount: number, currency: string) {
    const balance = this.balances.get(account) ?? { available: [], pending: [] };
    const funds = balance[kind].find((f) => f.currency === currency);
    if (funds) funds.amount += amount;
    else balance[kind].push({ amount, currency });
    this.balances.set(account, balance);
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://stripe.test');
    const form = Object.fromEntries(
      new URLSearchParams(Buffer.concat(chunks).toString('utf8') || url.search),
    );
    this.requests.push({
      method: req.method ?? '',
      path: url.pathname,
      headers: req.headers,
      form,
    });
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_fake' });
      res.end(JSON.stringify(body));
    };
    const refuse = (message: string, param?: string) =>
      send(400, { error: { type: 'invalid_request_error', message, ...(param ? { param } : {}) } });
    const failure = this.failNext[url.pathname];
    if (failure) {
      delete this.failNext[url.pathname];
      return send(failure, {
        error: { type: 'invalid_request_error', message: 'No such price: price_sub' },
      });
    }
    this.counter += 1;
    const n = this.counter;
    const key = `${req.method} ${url.pathname}`;
    switch (key) {
      case 'POST /v1/customers':
        return send(200, { id: `cus_fake${n}`, object: 'customer', email: form.email });
      case 'POST /v1/checkout/sessions': {
        // What Stripe checks of a destination charge: a connected account it knows, and a
        // transfer no larger than the charge.
        const destination = form['payment_intent_data[transfer_data][destination]'];
        if (destination !== undefined) {
          if (form.mode !== 'payment') {
            return refuse('transfer_data is only for payment mode.', 'payment_intent_data');
          }
          if (!this.accounts.has(destination)) {
            return refuse(
              `No such destination: '${destination}'`,
              'payment_intent_data[transfer_data][destination]',
            );
          }
          const total =
            Number(form['line_items[0][price_data][unit_amount]'] ?? 0) *
            Number(form['line_items[0][quantity]'] ?? 1);
          const amount = form['payment_intent_data[transfer_data][amount]'];
          if (amount !== undefined && !(Number(amount) > 0 && Number(amount) <= total)) {
            return refuse(
              'The transfer amount must be positive and no more than the charge.',
              'payment_intent_data[transfer_data][amount]',
            );
          }
        }
        const id = `cs_test_fake${n}`;
        this.sessions.set(id, { id, form, status: 'open' });
        return send(200, {
          id,
          object: 'checkout.session',
          mode: form.mode,
          status: 'open',
          url: `https://checkout.stripe.com/c/pay/${id}`,
        });
      }
      case 'POST /v1/billing_portal/sessions':
        return send(200, {
          id: `bps_${n}`,
          object: 'billing_portal.session',
          url: `https://billing.stripe.com/p/session/test_${n}`,
        });
      case 'POST /v1/accounts': {
        const id = `acct_fake${n}`;
        this.accounts.add(id);
        return send(200, { id, object: 'account', type: 'express', ...this.account });
      }
      case 'POST /v1/account_links':
        return send(200, {
          object: 'account_link',
          url: `https://connect.stripe.com/setup/e/${form.account}/link${n}`,
        });
      case 'GET /v1/balance': {
        const account = req.headers['stripe-account'];
        const balance = this.balances.get(typeof account === 'string' ? account : 'platform');
        return send(200, {
          object: 'balance',
          available: balance?.available ?? [],
          pending: balance?.pending ?? [],
        });
      }
      default:
        if (req.method === 'GET' && url.pathname.startsWith('/v1/accounts/')) {
          const id = url.pathname.split('/').pop()!;
          if (!this.accounts.has(id))
            return send(404, { error: { message: `No such account: '${id}'` } });
          return send(200, { id, object: 'account', type: 'express', ...this.account });
        }
        return send(404, { error: { type: 'invalid_request_error', message: `No ${key}` } });
    }
  }
}
