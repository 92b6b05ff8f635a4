export * from './api';
export { ActionButton } from './components/action-button';
export { BuyCreditsButton, BuyCreditsDialog } from './components/buy-credits-dialog';
export { ChapterPackOffer } from './components/chapter-pack-offer';
export { OrdersList } from './components/orders-list';
export { PastDueNotice } from './components/past-due-notice';
export {
  CreditCheckoutButton,
  CreditPacks,
  PlanButton,
  PlanCards,
  PlanStatus,
} from './components/plans';
export { SellerSettings } from './components/seller-settings';
export { SubscriptionPanel } from './components/subscription-panel';
export { TestBanner } from './components/test-banner';
export { TestCheckout, TestOnboarding, TestPortal } from './components/test-pages';
export { ThankYou } from './components/thank-you';
