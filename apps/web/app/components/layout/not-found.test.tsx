import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, data, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { NotFound, notFoundBoundary } from './not-found';

function renderMissing(status: number) {
  const router = createMemoryRouter(
    [
      {
        path: '/',
        ErrorBoundary: () => <p>The root boundary</p>,
        children: [
          {
            path: 'shop/:url',
            loader: () => {
              throw data(null, { status });
            },
            Component: () => <p>never</p>,
            ErrorBoundary: notFoundBoundary({
              thing: 'artwork',
              explanation: 'It may have been deleted by its creator.',
              actions: [{ to: '/shop', label: 'Back to the shop' }],
            }),
          },
        ],
      },
    ],
    { initialEntries: ['/shop/no-such-artwork'] },
  );
  render(<RouterProvider router={router} />);
}

describe('the 404 page', () => {
  afterEach(cleanup);

  it('says what is missing, with its own way back', async () => {
    renderMissing(404);
    const heading = await screen.findByRole('heading', { level: 1 });
    expect(heading.textContent).toBe("We couldn't find that artwork");
    expect(screen.getByRole('region', { name: "We couldn't find that artwork" })).toBeTruthy();
    expect(screen.getByText('It may have been deleted by its creator.')).toBeTruthy();
    const back = screen.getByRole('link', { name: 'Back to the shop' });
    expect(back.getAttribute('href')).toBe('/shop');
    expect(back.className).toContain('button-primary');
    expect(document.querySelector('title')?.textContent).toBe('Artwork not found | Chapterwise');
  });

  it('leaves any other error to the boundary above', async () => {
    renderMissing(500);
    expect(await screen.findByText('The root boundary')).toBeTruthy();
  });

  it('is the site’s 404 page without props', async () => {
    render(<RouterProvider router={createMemoryRouter([{ path: '/', Component: NotFound }])} />);
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe(
      "We couldn't find that page",
    );
    const links = screen.getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual(['Browse books', 'Go home']);
    expect(links[1]!.className).toContain('button-ghost');
  });
});
