import { formatCents, type ChapterPack } from '@chapterwise/shared';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { apiRequest, errorMessage } from '../../../lib/api';
import { useSession } from '../../../lib/session';
import { addChapterMaterials, createChapterCheckout } from '../api';
import { ActionButton } from './action-button';

/**
 * On a chapter page with ready-made materials: how to get copies of them into Your Materials.
 * Buy the chapter's pack ($2.99), or, with the Unlimited plan (or once bought), add them with
 * no checkout.
 */
export function ChapterPackOffer({
  bookUrl,
  chapterUrl,
  count,
}: {
  bookUrl: string;
  chapterUrl: string;
  count: number;
}) {
  const { user, status } = useSession();
  const pack = useQuery({
    queryKey: ['billing', 'pack', bookUrl, chapterUrl, user?._id ?? 'guest'],
    queryFn: () =>
      apiRequest<{ data: ChapterPack }>('/payment/chapter-pack', {
        query: { bookUrl, chapterUrl },
      }).then((a) => a.data),
    enabled: status !== 'resolving',
    retry: false,
  });
  const [adding, setAdding] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const here = `/book/${encodeURIComponent(bookUrl)}/${encodeURIComponent(chapterUrl)}`;
  const materials = `${count} material${count === 1 ? '' : 's'}`;

  async function handleAdd() {
    setAdding(true);
    setResult(null);
    try {
      const { copied } = await addChapterMaterials(bookUrl, chapterUrl);
      setResult({
        ok: true,
        message:
          copied > 0
            ? `Added ${copied} material${copied === 1 ? '' : 's'} to Your Materials.`
            : 'They are already in Your Materials.',
      });
    } catch (error) {
      setResult({ ok: false, message: errorMessage(error) });
    } finally {
      setAdding(false);
    }
  }

  const info = pack.data;
  const canAdd = !!user && !!info && (info.included || info.purchased);
  return (
    <div className="pack-offer" aria-live="polite">
      <div className="pack-offer-text">
        <p className="pack-offer-title">Make them yours</p>
        <p className="muted">
          {canAdd
            ? info.included
              ? `Your Unlimited plan includes this chapter: add the ${materials} to Your Materials to edit, export and file them in folders.`
              : `You bought this chapter's ${materials}: add them again to Your Materials if you deleted any.`
            : `Get your own copies of these ${materials} in Your Materials, to edit, export and file in folders: ${formatCents(info?.price ?? 299)} once, or free with the Unlimited plan.`}
        </p>
        {result ? (
          <p className={result.ok ? 'form-success' : 'form-error'} role="status">
            {result.message}{' '}
            {result.ok ? <Link to="/material-generator">Open Your Materials</Link> : null}
          </p>
        ) : null}
      </div>
      <div className="pack-offer-actions">
        {status === 'resolving' || (user && pack.isPending) ? (
          <span className="spinner" aria-label="Loading" role="status" />
        ) : !user ? (
          <Link
            className="button button-primary"
            to={`/login?redirectTo=${encodeURIComponent(here)}`}
          >
            Log in to buy
          </Link>
        ) : canAdd ? (
          <button
            type="button"
            className="button button-primary"
            disabled={adding}
            onClick={() => void handleAdd()}
          >
            {adding ? <span className="spinner" aria-hidden="true" /> : null}
            Add to my materials
          </button>
        ) : (
          <>
            <ActionButton start={() => createChapterCheckout(bookUrl, chapterUrl)}>
              Buy for {formatCents(info?.price ?? 299)}
            </ActionButton>
            <Link className="button button-ghost" to="/subscription">
              See Unlimited
            </Link>
          </>
        )}
      </div>
    </div>
  );
}
