import { Fragment, useState, type ReactNode } from 'react';
import { paragraphAnchor, splitParagraphs } from '@chapterwise/shared';
import { useRenderData } from '../../../lib/render-data';

const READING_ID = 'chapter-reading';

/** `_words_` (how PG marks italics) as <em>. */
function withEmphasis(text: string): ReactNode[] {
  const parts = text.split(/(_[^_\n]+_)/g);
  return parts.map((part, i) =>
    /^_[^_]+_$/.test(part) ? (
      <em key={i}>{part.slice(1, -1)}</em>
    ) : (
      <Fragment key={i}>{part}</Fragment>
    ),
  );
}

/**
 * A chapter's plain text as paragraphs. Prose lines that PG wrapped at 70 characters are
 * joined; verse, play lines and letters (short lines) keep their line breaks. Paragraph N has the
 * anchor `p-N` (the assistant links its quotes there).
 */
export function ChapterText({ text }: { text: string | undefined }) {
  const serverText = useRenderData().chapterText;
  const source = text ?? serverText;
  // First load in the browser: the text is in the document already, not in the page's data
  // (it is sent once). Keep that markup as it is.
  const [markup] = useState(() =>
    source === undefined && typeof document !== 'undefined'
      ? (document.getElementById(READING_ID)?.innerHTML ?? '')
      : '',
  );
  if (source === undefined) {
    return (
      <div
        className="reading"
        id={READING_ID}
        dangerouslySetInnerHTML={{ __html: markup }}
        suppressHydrationWarning
      />
    );
  }
  const paragraphs = splitParagraphs(source);
  return (
    <div className="reading" id={READING_ID}>
      {paragraphs.map((paragraph, i) => {
        const lines = paragraph.split('\n');
        const trimmed = paragraph.trim();
        if (/^\[Illustration/.test(trimmed)) {
          return (
            <p key={i} id={paragraphAnchor(i + 1)} className="reading-note">
              {trimmed.replace(/\s+/g, ' ')}
            </p>
          );
        }
        const verse = lines.length > 1 && lines.every((l) => l.trim().length < 58);
        if (verse) {
          return (
            <p key={i} id={paragraphAnchor(i + 1)} className="reading-verse">
              {lines.map((line, j) => (
                <Fragment key={j}>
                  {j > 0 ? <br /> : null}
                  {withEmphasis(line.trim())}
                </Fragment>
              ))}
            </p>
          );
        }
        return (
          <p key={i} id={paragraphAnchor(i + 1)}>
            {withEmphasis(lines.map((l) => l.trim()).join(' '))}
          </p>
        );
      })}
    </div>
  );
}
