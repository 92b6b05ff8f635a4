import { Link, useParams } from 'react-router';
import { ErrorBox } from '../components/ui/error-box';
import { Loading } from '../components/ui/loading';
import {
  ExportMenu,
  GenerationForm,
  MaterialList,
  useMaterialSet,
  useMaterialSets,
} from '../features/materials';
import { ApiClientError, errorMessage } from '../lib/api';
import { requireSession } from '../lib/guard';
import { seo } from '../lib/seo';
import { FileImport, fileImportStyles } from '../features/imports';
import materialsCss from '../styles/materials.css?url';
import type { Route } from './+types/set';

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: materialsCss },
  { rel: 'stylesheet', href: fileImportStyles },
];

export function meta() {
  return seo({ title: 'Folder', description: 'The materials of one folder.', noindex: true });
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

/** /set/{id}: a folder's materials, a form to generate into it, and moving materials between folders. */
export default function SetRoute() {
  const { id = '' } = useParams();
  const set = useMaterialSet(id);
  const sets = useMaterialSets();

  if (set.isPending) {
    return (
      <div className="container page">
        <Loading label="Loading the folder…" />
      </div>
    );
  }
  if (set.isError) {
    const missing =
      set.error instanceof ApiClientError && (set.error.status === 404 || set.error.status === 400);
    return (
      <div className="container page-narrow">
        <h1>{missing ? 'Folder not found' : 'Something went wrong'}</h1>
        {missing ? (
          <p>This folder does not exist or is not yours.</p>
        ) : (
          <ErrorBox message={errorMessage(set.error)} />
        )}
        <Link className="button button-primary" to="/dashboard">
          Back to the dashboard
        </Link>
      </div>
    );
  }

  const folder = set.data;
  return (
    <div className="container page materials-page">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to="/dashboard">Dashboard</Link> <span aria-hidden="true">/</span>{' '}
        <span aria-current="page">{folder.name}</span>
      </nav>
      <header className="page-head">
        <div className="editor-title-row">
          <h1>{folder.name}</h1>
          {folder.materialCount > 0 ? <ExportMenu setId={folder._id} name={folder.name} /> : null}
        </div>
        <p className="muted">
          {folder.materialCount} {folder.materialCount === 1 ? 'material' : 'materials'}
        </p>
      </header>
      <details className="card generate-into" open={folder.materialCount === 0}>
        <summary>Create a material in this folder</summary>
        <GenerationForm
          importSlot={importSlot}
          {...(sets.data ? { sets: sets.data.data } : {})}
          defaultSetId={folder._id}
        />
      </details>
      <MaterialList
        setId={folder._id}
        heading="Materials in this folder"
        {...(sets.data ? { sets: sets.data.data } : {})}
      />
    </div>
  );
}

/** The file import under the reference text: its texts are appended to it, in order. */
function importSlot(append: (text: string) => void, disabled: boolean) {
  return <FileImport onAppend={append} disabled={disabled} />;
}
