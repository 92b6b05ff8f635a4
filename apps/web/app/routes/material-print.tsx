import { Link, useParams, useSearchParams } from 'react-router';
import { ErrorBox } from '../components/ui/error-box';
import { Loading } from '../components/ui/loading';
import { MaterialView, useMaterial } from '../features/materials';
import { ApiClientError, errorMessage } from '../lib/api';
import { seo } from '../lib/seo';
import materialsCss from '../styles/materials.css?url';
import type { Route } from './+types/material-print';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: materialsCss }];

export function meta() {
  return seo({
    title: 'Print material',
    description: 'A printable copy of a material.',
    noindex: true,
  });
}

export function clientLoader() {
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
 * /material/{id}/print: a page made for paper. The student copy has name and date lines and
 * room to answer; the teacher copy adds the lesson plan and the answer key on its own page.
 */
export default function MaterialPrintRoute() {
  const { id = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const copy = params.get('copy') === 'student' ? 'student' : 'teacher';
  const material = useMaterial(id);

  if (material.isPending) {
    return (
      <div className="container page">
        <Loading label="Loading the material…" />
      </div>
    );
  }
  if (material.isError || !material.data.output) {
    const missing = material.error instanceof ApiClientError && material.error.status === 404;
    return (
      <div className="container page-narrow">
        <h1>{missing ? 'Material not found' : 'Not ready to print'}</h1>
        {material.isError && !missing ? <ErrorBox message={errorMessage(material.error)} /> : null}
        {!material.isError ? <p>This material has not finished generating yet.</p> : null}
        <Link className="button button-primary" to="/material-generator">
          Back to the Material Generator
        </Link>
      </div>
    );
  }

  return (
    <div className="container print-page">
      <div className="print-toolbar no-print" role="toolbar" aria-label="Print options">
        <div className="tabs" role="tablist" aria-label="Copy">
          {(['student', 'teacher'] as const).map((c) => (
            <button
              key={c}
              type="button"
              role="tab"
              className="tab"
              aria-selected={copy === c}
              onClick={() => setParams({ copy: c }, { replace: true })}
            >
              {c === 'student' ? 'Student copy' : 'Teacher copy'}
            </button>
          ))}
        </div>
        <div className="button-row">
          <button type="button" className="button button-primary" onClick={() => window.print()}>
            Print
          </button>
          <Link className="button button-ghost" to="/material-generator">
            Back
          </Link>
        </div>
      </div>
      <div className="print-sheet">
        <MaterialView document={material.data.output.document} copy={copy} keyOpen titleLevel={2} />
      </div>
    </div>
  );
}
