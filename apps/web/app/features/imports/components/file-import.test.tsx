import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FileImport } from './file-import';

interface Call {
  url: string;
  body: { image?: string; file?: string; fileName?: string };
  answer(status: number, body: unknown): void;
}

/** A fetch whose answers the test gives by hand, so it can act while files are in flight. */
function controllableFetch() {
  const calls: Call[] = [];
  const fetchMock = vi.fn(
    (url: string, init: RequestInit) =>
      new Promise<Response>((resolve) => {
        calls.push({
          url,
          body: JSON.parse(String(init.body)),
          answer: (status, body) => resolve(new Response(JSON.stringify(body), { status })),
        });
      }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

const ok = (text: string) => ({ wasSuccessful: true, text, truncated: false });
const file = (name: string, type: string, content = `content of ${name}`) =>
  new File([content], name, { type });

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

describe('<FileImport>', () => {
  beforeEach(() => {
    localStorage.setItem('token', 'header.payload.sig');
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('offers the accepted types, including PDF and OpenDocument', () => {
    render(<FileImport onAppend={() => undefined} />);
    const input = screen.getByLabelText('Choose files') as HTMLInputElement;
    expect(input.multiple).toBe(true);
    for (const ext of [
      '.jpg',
      '.jpeg',
      '.png',
      '.pptx',
      '.ppt',
      '.docx',
      '.doc',
      '.xls',
      '.xlsx',
      '.pdf',
      '.odt',
      '.odp',
      '.ods',
    ]) {
      expect(input.accept.split(',')).toContain(ext);
    }
  });

  it('reads each file once, one at a time, and appends all texts in order under headings', async () => {
    const user = userEvent.setup();
    const { calls } = controllableFetch();
    const onAppend = vi.fn();
    render(<FileImport onAppend={onAppend} />);

    await user.upload(screen.getByLabelText('Choose files'), [
      file('lesson.docx', DOCX),
      file('photo.jpg', 'image/jpeg'),
    ]);

    // The first file goes to the parser, with its name; the second waits its turn.
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]!.url).toBe('/api/v1/materials/parseoffice');
    expect(calls[0]!.body.fileName).toBe('lesson.docx');
    expect(calls[0]!.body.file).toMatch(/^data:.*;base64,/);
    expect(screen.getByRole('status').textContent).toContain('Importing 2 of 2 files…');
    expect(screen.getByLabelText('lesson.docx: progress')).toBeTruthy();

    await act(async () => calls[0]!.answer(200, ok('The Water Cycle')));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]!.url).toBe('/api/v1/materials/transcribeimage');
    expect(calls[1]!.body.image).toMatch(/^data:image\/jpeg;base64,/);
    expect(onAppend).not.toHaveBeenCalled();

    await act(async () => calls[1]!.answer(200, ok('Chapter 3: How Plants Make Food')));
    await waitFor(() => expect(onAppend).toHaveBeenCalledTimes(1));
    expect(onAppend).toHaveBeenCalledWith(
      '=== lesson.docx ===\nThe Water Cycle\n\n=== photo.jpg ===\nChapter 3: How Plants Make Food',
    );
    expect(screen.getByText('Text from 2 files were added to the reference text.')).toBeTruthy();
    expect(calls).toHaveLength(2);
  });

  it('shows a failed file’s own error and still appends the others', async () => {
    const user = userEvent.setup();
    const { calls } = controllableFetch();
    const onAppend = vi.fn();
    render(<FileImport onAppend={onAppend} />);
    await user.upload(screen.getByLabelText('Choose files'), [
      file('secret.pdf', 'application/pdf'),
      file('slides.pptx', 'application/vnd.ms-powerpoint'),
    ]);
    await waitFor(() => expect(calls).toHaveLength(1));
    await act(async () =>
      calls[0]!.answer(400, {
        errors: { message: 'This PDF is password-protected.', code: 'BAD_REQUEST' },
      }),
    );
    await waitFor(() => expect(calls).toHaveLength(2));
    await act(async () => calls[1]!.answer(200, ok('Slide 1\nThe Solar System')));
    await waitFor(() => expect(onAppend).toHaveBeenCalledTimes(1));
    expect(onAppend).toHaveBeenCalledWith('=== slides.pptx ===\nSlide 1\nThe Solar System');

    const failed = screen.getByText('secret.pdf').closest('li')!;
    expect(within(failed).getByText('This PDF is password-protected.')).toBeTruthy();
    expect(within(failed).getByText(/Could not be imported/)).toBeTruthy();
    expect(
      screen.getByText(
        'Text from 1 file was added to the reference text. 1 file could not be read.',
      ),
    ).toBeTruthy();
  });

  it('lets the teacher reorder files with the keyboard while they are read', async () => {
    const user = userEvent.setup();
    const { calls } = controllableFetch();
    const onAppend = vi.fn();
    render(<FileImport onAppend={onAppend} />);
    await user.upload(screen.getByLabelText('Choose files'), [
      file('a.docx', DOCX),
      file('b.docx', DOCX),
      file('c.docx', DOCX),
    ]);
    await waitFor(() => expect(calls).toHaveLength(1));

    // Move c to the top: focus its "up" button and press Enter twice.
    screen.getByRole('button', { name: 'Move c.docx up' }).focus();
    await user.keyboard('{Enter}');
    expect(screen.getByText('c.docx moved to position 2 of 3.')).toBeTruthy();
    screen.getByRole('button', { name: 'Move c.docx up' }).focus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('button', { name: 'Move c.docx up' })).toHaveProperty('disabled', true);

    const names = () =>
      within(screen.getByRole('list', { name: 'Files to import' }))
        .getAllByRole('listitem')
        .map((li) => li.querySelector('.file-import-name')!.textContent);
    expect(names()).toEqual(['c.docx', 'a.docx', 'b.docx']);

    for (let i = 0; i < 3; i++) {
      await waitFor(() => expect(calls).toHaveLength(i + 1));
      const name = calls[i]!.body.fileName!;
      await act(async () => calls[i]!.answer(200, ok(`text of ${name}`)));
    }
    await waitFor(() => expect(onAppend).toHaveBeenCalledTimes(1));
    expect(onAppend.mock.calls[0]![0]).toBe(
      '=== c.docx ===\ntext of c.docx\n\n=== a.docx ===\ntext of a.docx\n\n=== b.docx ===\ntext of b.docx',
    );
  });

  it('refuses unknown, empty and oversized files before uploading them', async () => {
    const { fetchMock } = controllableFetch();
    const onAppend = vi.fn();
    render(<FileImport onAppend={onAppend} />);
    const drop = screen.getByText('Import text from files').parentElement!;
    fireEvent.drop(drop, {
      dataTransfer: {
        files: [
          file('setup.exe', 'application/x-msdownload'),
          file('empty.docx', DOCX, ''),
          new File([new Uint8Array(16 * 1024 * 1024)], 'huge.pdf', { type: 'application/pdf' }),
        ],
      },
    });
    expect(await screen.findByText(/This type of file cannot be imported/)).toBeTruthy();
    expect(
      screen.getByText('This file is empty (0 bytes), so there is no text to import.'),
    ).toBeTruthy();
    expect(screen.getByText('This file is 16 MB; files can be at most 15 MB each.')).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByText('No text was added. 3 files could not be read.')).toBeTruthy(),
    );
    expect(fetchMock).not.toHaveBeenCalled();
    expect(onAppend).not.toHaveBeenCalled();
  });

  it('shows the server’s note when a text was cut at the limit', async () => {
    const user = userEvent.setup();
    const { calls } = controllableFetch();
    render(<FileImport onAppend={() => undefined} />);
    await user.upload(screen.getByLabelText('Choose files'), [file('long.docx', DOCX)]);
    await waitFor(() => expect(calls).toHaveLength(1));
    await act(async () =>
      calls[0]!.answer(200, {
        wasSuccessful: true,
        text: 'x',
        truncated: true,
        message: 'The text was longer than 100,000 characters.',
      }),
    );
    expect(await screen.findByText('The text was longer than 100,000 characters.')).toBeTruthy();
  });

  it('can be removed from the list, and does nothing while disabled', async () => {
    const user = userEvent.setup();
    const { calls } = controllableFetch();
    const onAppend = vi.fn();
    const { rerender } = render(<FileImport onAppend={onAppend} />);
    await user.upload(screen.getByLabelText('Choose files'), [
      file('keep.docx', DOCX),
      file('drop.docx', DOCX),
    ]);
    await waitFor(() => expect(calls).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Remove drop.docx' }));
    expect(screen.queryByText('drop.docx')).toBeNull();
    await act(async () => calls[0]!.answer(200, ok('kept')));
    await waitFor(() => expect(onAppend).toHaveBeenCalledWith('=== keep.docx ===\nkept'));
    expect(calls).toHaveLength(1);

    rerender(<FileImport onAppend={onAppend} disabled />);
    expect(screen.getByLabelText('Choose files')).toHaveProperty('disabled', true);
  });
});
