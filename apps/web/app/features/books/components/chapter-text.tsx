import { Fragment, type ReactNode } from 'react';
import { paragraphAnchor, splitParagraphs } from '@chapterwise/shared';

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
export function ChapterText({ text }: { text: string }) {
  const paragraphs = splitParagraphs(text);
  return (
    <div className="reading">
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
