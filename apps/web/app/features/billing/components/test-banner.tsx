import { BILLING_MESSAGES } from '@chapterwise/shared';

/** The banner on every page of the local adapter: nothing here is a real payment. */
export function TestBanner({ children }: { children?: React.ReactNode }) {
  return (
    <div className="test-banner" role="note">
      <strong>{BILLING_MESSAGES.testCheckoutBanner}</strong>{' '}
      {children ??
        'This is the offline test mode of Chapterwise payments: buttons here act as the payment provider would, without any money.'}
    </div>
  );
}
