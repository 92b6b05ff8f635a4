import { Link, useParams, useSearchParams } from 'react-router';
import { ErrorBox } from '../components/ui/error-box';
import { Loading } from '../components/ui/loading';
import { MaterialEditor, useMaterial } from '../features/materials';
import { safeRedirect } from '../features/users/redirect';
import { ApiClientError, errorMessage } from '../lib/api';
import { requireSession } from '../lib/guard';
import { seo } from '../lib/seo';
import materialsCss from '../styles/materials.css?url';
import type { Route } from './+types/material-edit';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: materialsCss }];

export function meta() {
  return seo({ title: 'Edit material', description: 'Edit a material.', noindex: true });
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
 * /material/{id}/edit: the editor for one of the teacher's own finished materials. Save and
 * Cancel go back to `returnTo` (the page the card was on), else the Material Generator.
 */
export default function MaterialEditRoute() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const returnTo = safeRedirect(params.get('returnTo'), '/material-generator');
  const material = useMaterial(id);

  if (material.isPending) {
    return (
      <div className="container page">
        <Loading label="Loading the material…" />
      </div>
    );
  }
  const data = material.data;
  if (material.isError || !data || data.isPlatform || !data.output) {
    const missing =
      material.error instanceof ApiClientError &&
      (material.error.status === 404 || material.error.status === 400);
    const title =
      missing || !data
        ? 'Material not found'
        : data.isPlatform
          ? 'Ready-made materials cannot be edited'
          : 'Not ready to edit';
    return (
      <div className="container page-narrow">
        <h1>{title}</h1>
        {material.isError && !missing ? <ErrorBox message={errorMessage(material.error)} /> : null}
        {missing ? <p>This material does not exist or is not yours.</p> : null}
        {data?.isPlatform ? (
          <p>
            This is one of the platform’s ready-made chapter materials. Add the chapter’s pack to
            your materials to get your own copy, which you can edit.
          </p>
        ) : null}
        {data && !data.isPlatform && !data.output ? (
          <p>This material has not finished generating, so there is nothing to edit yet.</p>
        ) : null}
        <Link className="button button-primary" to={returnTo}>
          Back
        </Link>
      </div>
    );
  }

  return (
    <div className="container page materials-page">
      <MaterialEditor key={data._id} material={data} returnTo={returnTo} />
    </div>
  );
}
