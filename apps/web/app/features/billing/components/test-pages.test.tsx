import type { CheckoutSession } from '@chapterwise/shared';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { checkShipping, shippingErrorFromServer } from '../shipping';
import { TestCheckout } from './test-pages';

const session: CheckoutSession = {
  id: 'cs_local_1',
  status: 'open',
  mode: 'payment',
  order: {
    _id: 'o1',
    product: 'shopProduct',
    productName: 'Print order',
    description: '1 × Ceramic Mug: A lighthouse, 11 oz',
    amount: 1499,
    currency: 'usd',
    status: 'pending',
    createdAt: '2026-11-27T10:00:00.000Z',
    paidAt: null,
    bookUrl: null,
    chapterUrl: null,
  },
  gives: 'A printed mug, shipped free',
  cancelUrl: '/shop/a-lighthouse/ceramic-mug',
};

function renderCheckout() {
  const router = createMemoryRouter([{ path: '*', element: <TestCheckout session={session} /> }]);
  render(<RouterProvider router={router} />);
}

function answer(status: number, body: unknown) {
  return Promise.resolve(new Response(JSON.stringify(body), { status }));
}

async function fillAddress() {
  await userEvent.type(screen.getByLabelText('Full name'), 'Ada Lovelace');
  await userEvent.type(screen.getByLabelText('Address'), '1 Main St');
  await userEvent.type(screen.getByLabelText('City'), 'Boston');
  await userEvent.type(screen.getByLabelText('ZIP / postal code'), '02108');
}

describe('the shipping address in plain words', () => {
  it('names each missing or too long field as the buyer knows it', () => {
    const errors = checkShipping({
      name: ' ',
      line1: '',
      city: 'x'.repeat(101),
      postal_code: '02108',
      country: 'US',
    });
    expect(errors).toEqual({
      name: 'Please enter the name to ship to.',
      line1: 'Please enter the street address.',
      city: 'Please shorten the city to 100 characters or fewer.',
    });
  });

  it('reads the server’s field messages, and leaves other messages alone', () => {
    expect(shippingErrorFromServer('Invalid field "shipping.name": is required')).toEqual({
      field: 'name',
      message: 'Please enter the name to ship to.',
    });
    expect(
      shippingErrorFromServer('Invalid field "shipping.line2": must be at most 200 characters'),
    ).toEqual({
      field: 'line2',
      message: 'Please shorten the apartment or suite to 200 characters or fewer.',
    });
    expect(
      shippingErrorFromServer(
        'Invalid field "shipping": a shipping address is required for a print order.',
      ),
    ).toEqual({ field: null, message: 'Please enter the address to ship to.' });
    expect(shippingErrorFromServer('Invalid field "variantId": no such variant.')).toBeNull();
    expect(shippingErrorFromServer('Invalid field "shipping.__proto__": is required')).toBeNull();
  });
});

describe('<TestCheckout> for a print order', () => {
  beforeEach(() => {
    localStorage.setItem('token', 'header.payload.sig');
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('asks for each missing part of the address in plain words, before sending anything', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderCheckout();
    await userEvent.click(screen.getByRole('button', { name: 'Pay $14.99' }));
    expect(screen.getByText('Please enter the name to ship to.')).toBeTruthy();
    expect(screen.getByText('Please enter the street address.')).toBeTruthy();
    expect(screen.getByText('Please enter the city.')).toBeTruthy();
    expect(screen.getByText('Please enter the ZIP or postal code.')).toBeTruthy();
    expect(screen.queryByText(/Invalid field/)).toBeNull();
    const name = screen.getByLabelText('Full name');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(name);
    expect(screen.getByLabelText('Apartment, suite (optional)').getAttribute('aria-invalid')).toBe(
      null,
    );
    // Typing in a field takes its message away.
    await userEvent.type(name, 'Ada');
    expect(screen.queryByText('Please enter the name to ship to.')).toBeNull();
    expect(screen.getByText('Please enter the city.')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('the inputs are text inputs, styled like the Country select', () => {
    vi.stubGlobal('fetch', vi.fn());
    renderCheckout();
    for (const label of ['Full name', 'Address', 'City', 'State / region', 'ZIP / postal code']) {
      expect(screen.getByLabelText(label).getAttribute('type')).toBe('text');
    }
  });

  it('says the server’s refusal of a field in plain words beside it', async () => {
    const fetchMock = vi.fn(() =>
      answer(400, {
        errors: { message: 'Invalid field "shipping.city": is required', code: 'BAD_REQUEST' },
      }),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderCheckout();
    await fillAddress();
    await userEvent.click(screen.getByRole('button', { name: 'Pay $14.99' }));
    expect(await screen.findByText('Please enter the city.')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Please check the shipping address above.');
    expect(screen.queryByText(/Invalid field/)).toBeNull();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
