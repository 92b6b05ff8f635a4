import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MessageView, type MessageActions, type ShownMessage } from './message';

const actions: MessageActions = {
  hasText: true,
  grade: '8th Grade (Year 9)',
  publicUrl: '',
  conversationId: 'c1',
  isLast: true,
  busy: false,
  onRetry: vi.fn(),
  onAsk: vi.fn(),
  onMaterial: vi.fn(),
};

const answer = (content: string, extra: Partial<ShownMessage> = {}): ShownMessage => ({
  id: 'm1',
  role: 'assistant',
  content,
  status: 'complete',
  citations: [
    {
      n: 1,
      quote: 'I am already far north of London.',
      paragraph: 6,
      source: 'chapter',
      bookUrl: 'frankenstein',
      bookTitle: 'Frankenstein',
      chapterUrl: 'letter-1',
      chapterTitle: 'Letter 1',
      href: '/book/frankenstein/letter-1#p-6',
    },
  ],
  quoteChecks: [],
  materials: [],
  createdAt: new Date().toISOString(),
  ...extra,
});

afterEach(cleanup);

describe('an answer', () => {
  it('renders Markdown, links [n] to its paragraph and lists the sources', () => {
    render(
      <ol>
        <MessageView
          message={answer(
            '**Walton** writes from the north:\n\n> I am already far north of London. [1]',
          )}
          actions={actions}
        />
      </ol>,
    );
    expect(screen.getByText('Walton').tagName).toBe('STRONG');
    const marker = screen.getByRole('link', {
      name: 'Passage 1: Letter 1, Frankenstein, paragraph 6',
    });
    expect(marker.getAttribute('href')).toBe('/book/frankenstein/letter-1#p-6');
    const sources = screen.getByRole('region', { name: 'Sources' });
    expect(sources.querySelector('a')?.getAttribute('href')).toBe(
      '/book/frankenstein/letter-1#p-6',
    );
    expect(screen.getByRole('button', { name: 'Make a quiz from this' })).toBeTruthy();
  });

  it('never renders raw HTML or script links, and flags quotes not found in the text', () => {
    const { container } = render(
      <ol>
        <MessageView
          message={answer(
            '<img src=x onerror="alert(1)"> [click](javascript:alert(1)) “made up words here”',
            {
              quoteChecks: [{ quote: 'made up words here', found: false }],
            },
          )}
          actions={actions}
        />
      </ol>,
    );
    expect(container.querySelector('img')).toBeNull();
    const link = screen.getByText('click').closest('a');
    expect(link?.getAttribute('href') ?? '').not.toMatch(/javascript/i);
    expect(screen.getByText(/Not found in the text/)).toBeTruthy();
  });
});
