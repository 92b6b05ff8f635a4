import {
  formatCents,
  formatShortDate,
  SHIPPING_COUNTRIES,
  SUBSCRIPTION_PRICE_CENTS,
  type CheckoutSession,
  type ShippingAddress,
  type SubscriptionInfo,
} from '@chapterwise/shared';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { ErrorBox } from '../../../components/ui/error-box';
import { errorMessage } from '../../../lib/api';
import {
  cancelTestCheckout,
  completeTestOnboarding,
  goTo,
  payTestCheckout,
  testPortalAction,
  type TestPortalAction,
} from '../api';
import {
  checkShipping,
  shippingErrorFromServer,
  type ShippingErrors,
  type ShippingField,
} from '../shipping';
import { TestBanner } from './test-banner';

/** Runs one action at a time: busy while it runs, the server's message when it fails. */
function useAction() {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function run<T>(name: string, action: () => Promise<T>): Promise<T | undefined> {
    setBusy(name);
    setError(null);
    try {
      return await action();
    } catch (caught) {
      setError(errorMessage(caught));
      setBusy(null);
      return undefined;
    }
  }
  return { busy, error, run, done: () => setBusy(null) };
}

/**
 * The local adapter's hosted checkout: the order as the server priced it, Pay and Cancel. Pay
 * makes the provider's events (payment, subscription) and applies them like webhooks.
 */
export function TestCheckout({ session }: { session: CheckoutSession }) {
  const { busy, error, run } = useAction();
  const { order } = session;
  const shipped = order.product === 'shopProduct';
  const [address, setAddress] = useState<ShippingAddress>({
    name: '',
    line1: '',
    line2: '',
    city: '',
    state: '',
    postal_code: '',
    country: 'US',
  });
  const [fieldErrors, setFieldErrors] = useState<ShippingErrors>({});
  const fieldsId = useId();
  const focusField = (field: ShippingField) =>
    document.getElementById(`${fieldsId}-${field}`)?.focus();

  const pay = async () => {
    if (shipped) {
      const errors = checkShipping(address);
      setFieldErrors(errors);
      const first = Object.keys(errors)[0] as ShippingField | undefined;
      if (first) return focusField(first);
    }
    const answer = await run('pay', async () => {
      try {
        return await payTestCheckout(session.id, shipped ? address : undefined);
      } catch (caught) {
        // The server checks the address too; its answer names wire fields, so say it plainly.
        const plain = shipped ? shippingErrorFromServer(errorMessage(caught)) : null;
        if (!plain) throw caught;
        if (plain.field) {
          setFieldErrors({ [plain.field]: plain.message });
          focusField(plain.field);
        }
        throw new Error(plain.field ? 'Please check the shipping address above.' : plain.message);
      }
    });
    if (answer) goTo(answer.url);
  };
  const changeAddress = (next: ShippingAddress) => {
    // A field's message goes once the buyer changes that field.
    setFieldErrors((errors) => {
      const kept = { ...errors };
      for (const key of Object.keys(kept) as ShippingField[]) {
        if (next[key] !== address[key]) delete kept[key];
      }
      return kept;
    });
    setAddress(next);
  };
  const cancel = async () => {
    const answer = await run('cancel', () => cancelTestCheckout(session.id));
    if (answer) goTo(answer.url);
  };

  return (
    <div className="card test-card">
      <TestBanner />
      <h1>Checkout</h1>
      <dl className="checkout-summary">
        <div>
          <dt>Item</dt>
          <dd>
            {shipped ? order.description : order.productName}
            {order.product === 'chapterMaterials' ? `: ${order.description}` : ''}
          </dd>
        </div>
        <div>
          <dt>What you get</dt>
          <dd>{session.gives}</dd>
        </div>
        <div className="checkout-total">
          <dt>{session.mode === 'subscription' ? 'Due today, then every month' : 'Total'}</dt>
          <dd>
            {formatCents(order.amount)}
            {session.mode === 'subscription' ? ' / month' : ''}
          </dd>
        </div>
      </dl>
      {session.status !== 'open' ? (
        <p className="alert alert-info" role="status">
          {session.status === 'complete'
            ? 'This checkout is already paid.'
            : 'This checkout has expired. Start again from the plans page.'}
        </p>
      ) : null}
      {shipped && session.status === 'open' ? (
        <ShippingFields
          id={fieldsId}
          address={address}
          errors={fieldErrors}
          onChange={changeAddress}
        />
      ) : null}
      <ErrorBox message={error} />
      <div className="button-row">
        {session.status === 'open' ? (
          <>
            <button
              type="button"
              className="button button-primary button-lg"
              disabled={!!busy}
              onClick={() => void pay()}
            >
              {busy === 'pay' ? <span className="spinner" aria-hidden="true" /> : null}
              {busy === 'pay' ? 'Paying…' : `Pay ${formatCents(order.amount)}`}
            </button>
            <button
              type="button"
              className="button button-ghost button-lg"
              disabled={!!busy}
              onClick={() => void cancel()}
            >
              Cancel
            </button>
          </>
        ) : (
          <Link className="button button-primary" to={shipped ? '/shop' : '/subscription'}>
            {shipped ? 'Back to the shop' : 'Back to plans'}
          </Link>
        )}
      </div>
    </div>
  );
}

/** The shipping address Stripe's checkout collects for print orders (shipping is free). */
function ShippingFields({
  id,
  address,
  errors,
  onChange,
}: {
  id: string;
  address: ShippingAddress;
  errors: ShippingErrors;
  onChange: (address: ShippingAddress) => void;
}) {
  const invalid = (key: ShippingField) => ({
    'aria-invalid': errors[key] ? true : undefined,
    'aria-describedby': errors[key] ? `${id}-${key}-error` : undefined,
  });
  const message = (key: ShippingField) =>
    errors[key] ? (
      <p className="field-error" id={`${id}-${key}-error`}>
        {errors[key]}
      </p>
    ) : null;
  const field = (key: ShippingField, label: string, autoComplete: string, required = true) => (
    <div className="field">
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <input
        type="text"
        id={`${id}-${key}`}
        name={key}
        autoComplete={autoComplete}
        required={required}
        value={address[key] ?? ''}
        onChange={(e) => onChange({ ...address, [key]: e.target.value })}
        {...invalid(key)}
      />
      {message(key)}
    </div>
  );
  return (
    <fieldset className="shipping-fields">
      <legend>Shipping address (Free Shipping)</legend>
      {field('name', 'Full name', 'name')}
      {field('line1', 'Address', 'address-line1')}
      {field('line2', 'Apartment, suite (optional)', 'address-line2', false)}
      {field('city', 'City', 'address-level2')}
      {field('state', 'State / region', 'address-level1', false)}
      {field('postal_code', 'ZIP / postal code', 'postal-code')}
      <div className="field">
        <label htmlFor={`${id}-country`}>Country</label>
        <select
          id={`${id}-country`}
          name="country"
          autoComplete="country"
          value={address.country}
          {...invalid('country')}
          onChange={(e) =>
            onChange({ ...address, country: e.target.value as ShippingAddress['country'] })
          }
        >
          {SHIPPING_COUNTRIES.map((code) => (
            <option key={code} value={code}>
              {code}
            </option>
          ))}
        </select>
        {message('country')}
      </div>
    </fieldset>
  );
}

const ACTION_LABELS: Record<TestPortalAction, string> = {
  cancel: 'Cancel plan',
  resume: 'Resume plan',
  'fail-payment': 'Simulate a failed renewal payment',
  'end-period': 'End the billing period now',
};

/**
 * The local adapter's customer portal: the plan, cancel it (at the end of the period) or resume
 * it, and two test tools that play what the provider does later (a failed card, the period's end).
 */
export function TestPortal({
  subscription,
  onChange,
}: {
  subscription: SubscriptionInfo | null;
  onChange: (info: SubscriptionInfo) => void;
}) {
  const { busy, error, run, done } = useAction();
  const act = async (action: TestPortalAction) => {
    const info = await run(action, () => testPortalAction(action));
    if (info) onChange(info);
    done();
  };
  const button = (action: TestPortalAction, tone: 'primary' | 'ghost' | 'danger') => (
    <button
      type="button"
      className={`button button-${tone}`}
      disabled={!!busy}
      onClick={() => void act(action)}
    >
      {busy === action ? <span className="spinner" aria-hidden="true" /> : null}
      {ACTION_LABELS[action]}
    </button>
  );
  const end = subscription?.currentPeriodEnd ? formatShortDate(subscription.currentPeriodEnd) : '';

  return (
    <div className="card test-card">
      <TestBanner />
      <h1>Manage Subscription</h1>
      {!subscription || !subscription.isSubscribed ? (
        <p>
          You have no active plan.{' '}
          {subscription?.status === 'canceled' ? 'Your Unlimited plan has ended.' : ''}
        </p>
      ) : (
        <>
          <dl className="checkout-summary">
            <div>
              <dt>Plan</dt>
              <dd>Unlimited · {formatCents(SUBSCRIPTION_PRICE_CENTS)} / month</dd>
            </div>
            <div>
              <dt>Status</dt>
              <dd data-testid="portal-status">
                {subscription.status === 'past_due'
                  ? 'Payment failed: retrying'
                  : subscription.cancelAtPeriodEnd
                    ? `Cancelled: ends on ${end}`
                    : `Active: renews on ${end}`}
              </dd>
            </div>
          </dl>
          <div className="button-row">
            {subscription.cancelAtPeriodEnd
              ? button('resume', 'primary')
              : button('cancel', 'danger')}
          </div>
          <details className="test-tools">
            <summary>Test tools</summary>
            <p className="muted">
              What the payment provider would do later, now: a renewal whose card is declined (the
              plan stays active as past due), or the end of the paid period (the plan renews, or
              ends if cancelled or unpaid).
            </p>
            <div className="button-row">
              {subscription.status !== 'past_due' ? button('fail-payment', 'ghost') : null}
              {button('end-period', 'ghost')}
            </div>
          </details>
        </>
      )}
      <ErrorBox message={error} />
      <p>
        <a href="/account?tab=subscription">← Back to Chapterwise</a>
      </p>
    </div>
  );
}

/** The local adapter's seller onboarding: complete it, or come back later. */
export function TestOnboarding({ accountId }: { accountId: string }) {
  const { busy, error, run } = useAction();
  const complete = async () => {
    const answer = await run('complete', completeTestOnboarding);
    if (answer) goTo(answer.url);
  };
  return (
    <div className="card test-card">
      <TestBanner>
        With a real provider this is where a seller gives their identity and bank details.
      </TestBanner>
      <h1>Seller onboarding</h1>
      <p>
        Account <code>{accountId || 'unknown'}</code>. Completing onboarding enables charges and
        payouts, which makes you an authorized seller.
      </p>
      <ErrorBox message={error} />
      <div className="button-row">
        <button
          type="button"
          className="button button-primary button-lg"
          disabled={!!busy}
          onClick={() => void complete()}
        >
          {busy ? <span className="spinner" aria-hidden="true" /> : null}
          Complete onboarding
        </button>
        <a className="button button-ghost button-lg" href="/account?tab=seller&onboarding=return">
          Not now
        </a>
      </div>
    </div>
  );
}
