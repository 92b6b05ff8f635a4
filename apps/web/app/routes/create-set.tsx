import { MATERIAL_LIMITS } from '@chapterwise/shared';
import { useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ErrorBox } from '../components/ui/error-box';
import { Loading } from '../components/ui/loading';
import { useCreateSet } from '../features/materials';
import { errorMessage } from '../lib/api';
import { requireSession } from '../lib/guard';
import { seo } from '../lib/seo';
import materialsCss from '../styles/materials.css?url';
import type { Route } from './+types/create-set';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: materialsCss }];

export function meta() {
  return seo({
    title: 'Add Folder',
    description: 'Add a folder for your materials.',
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

/** /create-set: names a new folder, then opens it. */
export default function CreateSetRoute() {
  const [name, setName] = useState('');
  const create = useCreateSet();
  const navigate = useNavigate();
  const id = useId();
  return (
    <div className="container page-narrow create-set">
      <h1>Add Folder</h1>
      <p className="lead">
        Folders keep your quizzes, tests and other materials together, by class, unit or book.
      </p>
      <form
        className="card"
        onSubmit={(event) => {
          event.preventDefault();
          if (!name.trim()) return;
          create.mutate(name.trim(), { onSuccess: (set) => void navigate(`/set/${set._id}`) });
        }}
      >
        <div className="field">
          <label htmlFor={id}>Folder name</label>
          <input
            id={id}
            type="text"
            required
            autoFocus
            maxLength={MATERIAL_LIMITS.setName}
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="Period 3 – Gothic novels"
            autoComplete="off"
          />
        </div>
        <ErrorBox message={create.isError ? errorMessage(create.error) : null} />
        <div className="button-row">
          <button
            type="submit"
            className="button button-primary"
            disabled={create.isPending || !name.trim()}
          >
            {create.isPending ? <span className="spinner" aria-hidden="true" /> : null}
            Create Folder
          </button>
          <Link className="button button-ghost" to="/dashboard">
            Cancel
          </Link>
        </div>
      </form>
    </div>
  );
}
