import type { BlogAdminPostDetail, BlogPost, OwnUser } from '@chapterwise/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider } from '../../../lib/toast';
import { BlogList } from './blog-list';
import { fromLocalInput, PostEditor, toLocalInput } from './post-editor';

const user: OwnUser = {
  _id: 'u1',
  username: 'shirley',
  firstName: 'Shirley',
  lastName: 'Jackson',
  email: 'shirley@example.org',
  bio: 'Teaches English in Vermont.',
  createdAt: '2026-01-01T00:00:00.000Z',
  websiteUrl: '',
  instagramUrl: '',
  twitterUrl: '',
  facebookUrl: '',
  avatar: '/uploads/avatars/shirley.webp',
  address: '',
  city: '',
  state: '',
  postal: '',
  country: 'US',
  generationCredits: 5,
  imageGenerationCredits: 0,
  modelTrainingCredits: 0,
  isSubscribed: false,
  isAdmin: true,
};

function renderAt(element: React.ReactNode, path = '/admin/blog/new') {
  const router = createMemoryRouter(
    [
      { path: '/admin/blog/new', element },
      { path: '/admin/blog/:id', element: <p>Editing saved post</p> },
      { path: '*', element },
    ],
    { initialEntries: [path] },
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ToastProvider>
        <RouterProvider router={router} />
      </ToastProvider>
    </QueryClientProvider>,
  );
  return router;
}

function answer(status: number, body: unknown) {
  return Promise.resolve(new Response(JSON.stringify(body), { status }));
}

const saved: BlogAdminPostDetail = {
  _id: '3f1c2b8e-9d4a-4c6b-8e2f-1a2b3c4d5e6f',
  url: 'the-haunting-of-chapter-one',
  title: 'The haunting of chapter one',
  excerpt: '',
  publishDate: '',
  updatedAt: '2026-11-20T10:00:00.000Z',
  createdAt: '2026-11-20T10:00:00.000Z',
  thumbnailImage: '',
  thumbnailImageSmall: '',
  categories: ['Book Guides'],
  tags: ['Gothic', 'Ghost stories'],
  authorFirstName: 'Shirley',
  authorLastName: 'Jackson',
  authorBio: 'Teaches English in Vermont.',
  authorProfilePicture: '/uploads/avatars/shirley.webp',
  readingMinutes: 1,
  state: 'draft',
  featured: false,
  markdown: 'Body.',
  summary: '',
  status: 'draft',
};

describe('<PostEditor>', () => {
  beforeEach(() => {
    localStorage.setItem('token', 'header.payload.sig');
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it("starts from the admin's profile and makes the address from the title by the slug rule", async () => {
    vi.stubGlobal('fetch', vi.fn());
    renderAt(<PostEditor user={user} />);
    expect(screen.getByLabelText('First name')).toHaveProperty('value', 'Shirley');
    expect(screen.getByLabelText('Last name')).toHaveProperty('value', 'Jackson');
    expect(screen.getByLabelText('Bio')).toHaveProperty('value', 'Teaches English in Vermont.');
    expect(screen.getByRole('img', { name: 'Author picture' }).getAttribute('src')).toBe(
      '/uploads/avatars/shirley.webp',
    );
    await userEvent.type(screen.getByLabelText('Title'), 'The Haunting of Chapter One!');
    expect(screen.getByLabelText('Address')).toHaveProperty('value', 'the-haunting-of-chapter-one');
    // Typed by hand, the address stops following the title.
    await userEvent.clear(screen.getByLabelText('Address'));
    await userEvent.type(screen.getByLabelText('Address'), 'haunting');
    await userEvent.type(screen.getByLabelText('Title'), ' Again');
    expect(screen.getByLabelText('Address')).toHaveProperty('value', 'haunting');
  });

  it('checks the form with the shared schema before sending anything', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderAt(<PostEditor user={user} />);
    await userEvent.click(screen.getByRole('button', { name: 'Publish' }));
    expect(screen.getByRole('alert').textContent).toBe('Please correct the fields marked below.');
    expect(screen.getByText('Please give the post a title.')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Title'), 'A title');
    await userEvent.click(screen.getByRole('button', { name: 'Publish' }));
    expect(screen.getByText('A published post needs a body.')).toBeTruthy();
    expect(screen.getByText('A published post needs at least one category.')).toBeTruthy();
    expect(screen.getByLabelText('Markdown').getAttribute('aria-invalid')).toBe('true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('saves a draft with tags, a local date as UTC, and moves to the saved post', async () => {
    const fetchMock = vi.fn((url: string, init: RequestInit) => {
      if (url === '/api/v1/blog/admin/preview')
        return answer(200, { html: '<p>Body.</p>', readingMinutes: 1 });
      if (url === '/api/v1/blog/admin/posts' && init.method === 'POST')
        return answer(201, { data: saved });
      return answer(404, { errors: { message: 'unexpected', code: 'NOT_FOUND' } });
    });
    vi.stubGlobal('fetch', fetchMock);
    const router = renderAt(<PostEditor user={user} />);
    await userEvent.type(screen.getByLabelText('Title'), 'The haunting of chapter one');
    await userEvent.type(screen.getByLabelText('Markdown'), 'Body.');
    await userEvent.type(screen.getByLabelText('Tags'), 'Gothic, ghost stories, gothic, ');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Book Guides' }));
    await userEvent.type(screen.getByLabelText('Publish date and time'), '2026-12-01T09:30');
    await waitFor(() =>
      expect(
        within(screen.getByRole('region', { name: /^Preview/ })).getByText('Body.'),
      ).toBeTruthy(),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/admin/blog/${saved._id}`));
    const call = fetchMock.mock.calls.find(
      ([url, init]) => url === '/api/v1/blog/admin/posts' && init.method === 'POST',
    );
    const body = JSON.parse(String(call?.[1].body));
    expect(body).toMatchObject({
      title: 'The haunting of chapter one',
      url: 'the-haunting-of-chapter-one',
      markdown: 'Body.',
      status: 'draft',
      categories: ['Book Guides'],
      tags: ['Gothic', 'ghost stories'],
      publishDate: new Date('2026-12-01T09:30').toISOString(),
      authorFirstName: 'Shirley',
      authorProfilePicture: '/uploads/avatars/shirley.webp',
      thumbnailImage: '',
    });
    expect(call?.[1].headers).toMatchObject({ authorization: 'Bearer header.payload.sig' });
  });

  it('converts between the date field and UTC in the browser time zone', () => {
    const iso = '2026-12-01T09:30:00.000Z';
    expect(fromLocalInput(toLocalInput(iso))).toBe(iso);
    expect(toLocalInput('')).toBe('');
    expect(fromLocalInput('')).toBeNull();
    expect(fromLocalInput('not a date')).toBeNull();
  });
});

describe('<BlogList>', () => {
  afterEach(() => cleanup());
  const sidebar = {
    searchTerm: 'vampires',
    taxonomy: { categories: [], tags: [], authors: [] },
    recommended: [],
  };

  it('says no posts were found and offers the way back', () => {
    renderAt(
      <BlogList
        heading="Search results for “vampires”"
        basePath="/blog"
        posts={[]}
        count={0}
        page={1}
        pageCount={0}
        sidebar={sidebar}
      />,
      '/blog?searchTerm=vampires',
    );
    expect(screen.getByRole('status').textContent).toBe('No posts found');
    expect(screen.getByText(/Nothing matches “vampires”/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See all posts' }).getAttribute('href')).toBe('/blog');
  });

  it('shows cards with the short US date, category links by slug and paging', () => {
    const post: BlogPost = {
      ...saved,
      excerpt: 'An excerpt.',
      publishDate: '2026-11-17T13:00:00.000Z',
      categories: ['Reading & Literacy'],
    };
    renderAt(
      <BlogList
        heading="Blog"
        basePath="/blog/tag/gothic"
        posts={[post]}
        count={30}
        page={2}
        pageCount={3}
        sidebar={{ ...sidebar, searchTerm: '' }}
      />,
      '/blog/tag/gothic?page=2',
    );
    expect(screen.getByText('Nov 17, 2026').getAttribute('dateTime')).toBe(post.publishDate);
    expect(screen.getByRole('link', { name: 'Reading & Literacy' }).getAttribute('href')).toBe(
      '/blog/category/reading-literacy',
    );
    expect(screen.getByRole('link', { name: post.title }).getAttribute('href')).toBe(
      '/blog/the-haunting-of-chapter-one',
    );
    const pages = screen.getByRole('navigation', { name: 'Pages of posts' });
    expect(within(pages).getByRole('link', { name: '← Previous' }).getAttribute('href')).toBe(
      '/blog/tag/gothic',
    );
    expect(within(pages).getByRole('link', { name: 'Next →' }).getAttribute('href')).toBe(
      '/blog/tag/gothic?page=3',
    );
  });
});
