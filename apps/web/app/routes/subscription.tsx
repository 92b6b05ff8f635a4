import { FREE_GENERATIONS, formatCents, SUBSCRIPTION_PRICE_CENTS } from '@chapterwise/shared';
import { CreditPacks, PlanCards, PlanStatus, useSubscription } from '../features/billing';
import { seo } from '../lib/seo';
import { useSession } from '../lib/session';
import billingCss from '../styles/billing.css?url';
import type { Route } from './+types/subscription';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: billingCss }];

export function loader({ context }: Route.LoaderArgs) {
  return { publicUrl: context.publicConfig.publicUrl };
}

export function meta({ data }: Route.MetaArgs) {
  return seo({
    title: 'Subscription and credits',
    description: `Start with ${FREE_GENERATIONS} free generations, no card needed. Unlimited is ${formatCents(SUBSCRIPTION_PRICE_CENTS)} a month, cancel any time.`,
    path: '/subscription',
    ...(data ? { publicUrl: data.publicUrl } : {}),
  });
}

/**
 * /subscription (spec §2): Free (5 generations) and Unlimited ($9.99 a month) side by side with
 * Buy Now or Manage Subscription by state, then the two credit packs, and plain answers.
 */
export default function SubscriptionRoute() {
  const { user, status } = useSession();
  const subscription = useSubscription(!!user);
  return (
    <div className="container page subscription-page">
      <header className="page-head billing-head">
        <h1>Subscription and credits</h1>
        <p className="lead">
          Every account starts with {FREE_GENERATIONS} free generations, no card needed. When your
          class needs more, Unlimited is {formatCents(SUBSCRIPTION_PRICE_CENTS)} a month and you can
          cancel any time.
        </p>
        {user ? <PlanStatus user={user} subscription={subscription.data} /> : null}
      </header>
      <PlanCards user={status === 'resolving' ? null : user} />

      <section className="packs-section" aria-labelledby="packs-heading">
        <h2 id="packs-heading">Credit packs</h2>
        <p className="muted">
          Paid once, kept on your account, for the AI image features: training a custom image model
          and generating images with it or with any other model.
        </p>
        <CreditPacks user={status === 'resolving' ? null : user} />
      </section>

      <section className="faq" aria-labelledby="faq-heading">
        <h2 id="faq-heading">Questions</h2>
        <dl>
          <dt>What counts as a generation?</dt>
          <dd>
            Each quiz, test, lesson or worksheet you create. A generation that fails gives its
            credit back.
          </dd>
          <dt>What happens when I cancel?</dt>
          <dd>
            Your plan keeps working until the end of the month you paid for, then you are back on
            Free. You can resume it before then in Manage Subscription.
          </dd>
          <dt>What if a renewal payment fails?</dt>
          <dd>
            The plan stays active while the payment is retried; update your card in Manage
            Subscription. If every retry fails, the plan ends.
          </dd>
          <dt>Who handles my card?</dt>
          <dd>
            Our payment provider, on its own secure checkout page. Chapterwise never sees or stores
            your card number.
          </dd>
        </dl>
      </section>
    </div>
  );
}
