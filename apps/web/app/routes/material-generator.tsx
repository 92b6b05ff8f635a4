import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { Loading } from '../components/ui/loading';
import {
  GenerationForm,
  getChapter,
  MaterialList,
  useMaterialSets,
  type GenerationPrefill,
} from '../features/materials';
import { errorMessage } from '../lib/api';
import { requireSession } from '../lib/guard';
import { seo } from '../lib/seo';
import { FileImport, fileImportStyles } from '../features/imports';
import materialsCss from '../styles/materials.css?url';
import type { Route } from './+types/material-generator';

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: materialsCss },
  { rel: 'stylesheet', href: fileImportStyles },
];

export function meta() {
  return seo({
    title: 'Material Generator',
    description:
      'Create quizzes, tests, lessons and worksheets from any text, with answer keys checked against it.',
    noindex: true,
  });
}

export function clientLoader(args: Route.ClientLoaderArgs) {
  requireSession(args);
  return null;
}

export function HydrateFallback() {
  return (
    <div className="container page">
      <Loading />
    </div>
  );
}

/**
 * /material-generator: the 'Create Material' form and 'Your Materials'. Opened from a chapter
 * page with ?bookUrl=&chapterUrl=, it fills in the name, subject and text of that chapter and
 * the material remembers where it came from; ?setId= preselects a folder.
 */
export default function MaterialGeneratorRoute() {
  const [params] = useSearchParams();
  const bookUrl = params.get('bookUrl') ?? '';
  const chapterUrl = params.get('chapterUrl') ?? '';
  const fromChapter = !!bookUrl && !!chapterUrl;
  const sets = useMaterialSets();
  const chapter = useQuery({
    queryKey: ['chapter', bookUrl, chapterUrl],
    queryFn: () => getChapter(bookUrl, chapterUrl),
    enabled: fromChapter,
    retry: false,
    staleTime: Infinity,
  });

  const prefill = useMemo<GenerationPrefill | undefined>(() => {
    if (!fromChapter) return undefined;
    const data = chapter.data?.data;
    if (!data) return { bookUrl, chapterUrl };
    return {
      bookUrl,
      chapterUrl,
      name: `${data.book.title}: ${data.chapter.title}`,
      subject: data.book.subject ?? 'English',
      referenceText: data.chapter.text,
    };
  }, [fromChapter, chapter.data, bookUrl, chapterUrl]);

  return (
    <div className="container page materials-page">
      <header className="page-head">
        <h1>Material Generator</h1>
        <p className="lead">
          Paste a text or start from a chapter, choose a grade and a type, and get a material whose
          answers are checked against the text.
        </p>
      </header>
      {fromChapter && chapter.isPending ? <Loading label="Loading the chapter text…" /> : null}
      {fromChapter && chapter.isError ? (
        <p className="alert alert-info" role="status">
          We could not load the text of this chapter ({errorMessage(chapter.error)}). You can paste
          the text instead.
        </p>
      ) : null}
      {chapter.data ? (
        <p className="alert alert-info" role="status">
          Filled in from <strong>{chapter.data.data.book.title}</strong>:{' '}
          {chapter.data.data.chapter.title}. Choose a grade and a type, then generate.
        </p>
      ) : null}
      <GenerationForm
        importSlot={importSlot}
        {...(sets.data ? { sets: sets.data.data } : {})}
        {...(prefill ? { prefill } : {})}
        defaultSetId={params.get('setId')}
      />
      <MaterialList {...(sets.data ? { sets: sets.data.data } : {})} />
    </div>
  );
}

/** The file import under the reference text: its texts are appended to it, in order. */
function importSlot(append: (text: string) => void, disabled: boolean) {
  return <FileImport onAppend={append} disabled={disabled} />;
}
