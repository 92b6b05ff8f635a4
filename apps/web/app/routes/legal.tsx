import { PRODUCT_NAME } from '@chapterwise/shared';
import { data } from 'react-router';
import { seo } from '../lib/seo';
import type { Route } from './+types/legal';

interface Policy {
  title: string;
  summary: string;
  sections: Array<{ heading: string; body: string[] }>;
}

const POLICIES: Record<string, Policy> = {
  privacy: {
    title: 'Privacy Policy',
    summary: `What ${PRODUCT_NAME} keeps about you, why, and how to have it removed.`,
    sections: [
      {
        heading: 'What we keep',
        body: [
          'Your name, username, email address and the profile details you choose to add.',
          'The materials, folders and reference texts you create, so that you can come back to them.',
          'Records of purchases (the product, amount and date). Card details are handled by our payment provider and never reach our servers.',
        ],
      },
      {
        heading: 'What we do not do',
        body: [
          'We do not sell your data or show advertising.',
          'Your email address is never shown on your public profile.',
          'Texts you paste or import are used only to make your materials.',
        ],
      },
      {
        heading: 'Your choices',
        body: [
          'You can edit your profile at any time from your account page, and unsubscribe from the newsletter with the link in every email.',
          'To delete your account and everything in it, write to hello@chapterwise.app.',
        ],
      },
    ],
  },
  terms: {
    title: 'Terms of Service',
    summary: `The rules for using ${PRODUCT_NAME}.`,
    sections: [
      {
        heading: 'Your account',
        body: [
          'Keep your password to yourself; you are responsible for what is done with your account.',
          'Materials you generate are yours to use in your teaching, to edit and to share with your students.',
        ],
      },
      {
        heading: 'Plans and credits',
        body: [
          'New accounts get 5 free generations. The Unlimited plan costs $9.99 a month and can be cancelled at any time; it stays active until the end of the paid month.',
          'Credits bought for image features do not expire.',
        ],
      },
      {
        heading: 'The books',
        body: [
          'The books are in the public domain in the United States. Outside the US, local copyright law applies.',
        ],
      },
    ],
  },
  cookies: {
    title: 'Cookie Policy',
    summary: 'We use as little browser storage as we can.',
    sections: [
      {
        heading: 'What is stored in your browser',
        body: [
          'Your sign-in token and your light or dark theme choice are kept in your browser’s local storage.',
          'We use no advertising or tracking cookies. Our payment provider may set its own cookies on its checkout pages.',
        ],
      },
    ],
  },
  'acceptable-use': {
    title: 'Acceptable Use Policy',
    summary: 'Use the product for teaching and learning.',
    sections: [
      {
        heading: 'Please do not',
        body: [
          'Upload texts you have no right to use, or content that is unlawful, hateful or harassing.',
          'Try to break, overload or get around the limits of the service, or access other people’s accounts or materials.',
        ],
      },
    ],
  },
  returns: {
    title: 'Return Policy',
    summary: 'Refunds for subscriptions, credits and shop products.',
    sections: [
      {
        heading: 'Subscriptions and credits',
        body: [
          'You can cancel the Unlimited plan at any time from your account. If you were charged by mistake, write to us within 14 days for a full refund.',
          'Unused credit packs can be refunded within 14 days of purchase.',
        ],
      },
      {
        heading: 'Printed products',
        body: [
          'Printed products that arrive damaged or wrong are replaced or refunded; send us a photo within 30 days of delivery.',
        ],
      },
    ],
  },
};

export function loader({ params }: Route.LoaderArgs) {
  const policy = POLICIES[params.policy];
  if (!policy) throw data('Not Found', { status: 404 });
  return { policy, slug: params.policy };
}

export function meta({ data: loaderData }: Route.MetaArgs) {
  if (!loaderData) return [];
  return seo({ title: loaderData.policy.title, description: loaderData.policy.summary });
}

export default function LegalPage({ loaderData }: Route.ComponentProps) {
  const { policy } = loaderData;
  return (
    <article className="container page-narrow prose">
      <h1>{policy.title}</h1>
      <p className="lead">{policy.summary}</p>
      {policy.sections.map((section) => (
        <section key={section.heading}>
          <h2>{section.heading}</h2>
          {section.body.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </section>
      ))}
      <p className="muted">Last updated November 2026. Questions: hello@chapterwise.app</p>
    </article>
  );
}
