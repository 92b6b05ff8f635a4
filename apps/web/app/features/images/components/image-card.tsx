import type { GeneratedImage } from '@chapterwise/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { errorMessage } from '../../../lib/api';
import { useSession } from '../../../lib/session';
import { useToast } from '../../../lib/toast';
import { createPost, deleteImage, upscaleImage, makeProductsFromUpscale } from '../api';

/**
 * One generated image with its actions: upscale 2×/4×, post to the profile, download, delete.
 * Upscales in progress are polled by the list that owns the card (it refetches while any runs).
 */
export function ImageCard({
  image,
  onNoCredits,
}: {
  image: GeneratedImage;
  onNoCredits: () => void;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const session = useSession();
  const toast = useToast();
  const [confirming, setConfirming] = useState(false);
  const [posting, setPosting] = useState(false);
  const [error, setError] = useState('');
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['images'] });

  const upscale = useMutation({
    mutationFn: (scale: 2 | 4) => upscaleImage(image._id, scale),
    onSuccess: async () => {
      setError('');
      await refresh();
      await session.refresh();
    },
    onError: (e) => {
      setError(errorMessage(e));
      if ((e as { status?: number }).status === 402) onNoCredits();
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteImage(image._id),
    onSuccess: async () => {
      setConfirming(false);
      toast({
        title: 'Image Deleted',
        message: 'Image successfully deleted!',
        tone: 'success',
        durationMs: 4000,
      });
      await refresh();
    },
    onError: (e) => {
      setConfirming(false);
      setError(errorMessage(e));
    },
  });

  // A finished upscale can become the artwork of print products (poster, mug, t-shirt, tote).
  const makeProducts = useMutation({
    mutationFn: (upscaleId: string) => makeProductsFromUpscale(upscaleId),
    onSuccess: (answer) => {
      setError('');
      if (answer.data.status === 'failed') setError(answer.data.error ?? 'No products were made.');
      else void navigate(`/shop/${encodeURIComponent(answer.data.url)}`);
    },
    onError: (e) => setError(errorMessage(e)),
  });

  const running = image.upscales.some((u) => u.status === 'queued' || u.status === 'running');
  const fileName = `${image.predictionUrl}.png`;
  return (
    <li className="card image-card">
      <a href={image.image} className="image-frame" target="_blank" rel="noreferrer">
        <img
          src={image.image}
          alt={`Generated: ${image.prompt}`}
          width={image.width}
          height={image.height}
          loading="lazy"
        />
      </a>
      <p className="image-prompt">{image.prompt}</p>
      <p className="muted image-meta">
        {image.modelName} · {image.width}×{image.height}
        {image.postId ? (
          <>
            {' '}
            · <Link to={`/${image.creatorUsername}/${image.predictionUrl}`}>On your profile</Link>
          </>
        ) : null}
      </p>
      <div className="image-actions" role="group" aria-label="Image actions">
        <button
          type="button"
          className="button button-ghost button-sm"
          disabled={upscale.isPending || running}
          onClick={() => upscale.mutate(2)}
        >
          Upscale 2×
        </button>
        <button
          type="button"
          className="button button-ghost button-sm"
          disabled={upscale.isPending || running}
          onClick={() => upscale.mutate(4)}
        >
          Upscale 4×
        </button>
        {image.postId ? null : (
          <button
            type="button"
            className="button button-ghost button-sm"
            onClick={() => setPosting(true)}
          >
            Post to profile
          </button>
        )}
        <a className="button button-ghost button-sm" href={image.image} download={fileName}>
          Download
        </a>
        <button
          type="button"
          className="button button-ghost danger button-sm"
          aria-label="Delete image"
          onClick={() => setConfirming(true)}
        >
          Delete
        </button>
      </div>
      {image.upscales.length ? (
        <ul className="upscale-list" aria-label="Upscaled versions">
          {image.upscales.map((u) => (
            <li key={u._id}>
              {u.status === 'succeeded' && u.image ? (
                <>
                  {u.scale}× upscale: {u.width}×{u.height}{' '}
                  <a href={u.image} download={`${image.predictionUrl}-x${u.scale}.png`}>
                    Download {u.scale}×
                  </a>{' '}
                  <button
                    type="button"
                    className="link-button"
                    disabled={makeProducts.isPending}
                    onClick={() => makeProducts.mutate(u._id)}
                  >
                    {makeProducts.isPending && makeProducts.variables === u._id
                      ? 'Making products…'
                      : 'Make shop products'}
                  </button>
                </>
              ) : u.status === 'failed' || u.status === 'canceled' ? (
                <span className="error-text">
                  {u.scale}× upscale failed. {u.error}
                </span>
              ) : (
                <span role="status">Upscaling {u.scale}×…</span>
              )}
            </li>
          ))}
        </ul>
      ) : null}
      {error ? (
        <p className="error-text" role="alert">
          {error}
        </p>
      ) : null}
      <PostDialog
        open={posting}
        image={image}
        onClose={() => setPosting(false)}
        onPosted={async () => {
          setPosting(false);
          toast({
            title: 'Posted',
            message: 'The image is on your public profile.',
            tone: 'success',
            durationMs: 4000,
          });
          await refresh();
        }}
      />
      <ConfirmDialog
        open={confirming}
        title="Are you sure?"
        message="Are you sure you want to permanently delete this image?"
        confirmLabel="Delete"
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
        onCancel={() => setConfirming(false)}
      />
    </li>
  );
}

/** Name and description of a new profile post; the largest finished upscale is offered. */
function PostDialog({
  open,
  image,
  onClose,
  onPosted,
}: {
  open: boolean;
  image: GeneratedImage;
  onClose: () => void;
  onPosted: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [useUpscale, setUseUpscale] = useState(true);
  const [error, setError] = useState('');
  const best = [...image.upscales]
    .filter((u) => u.status === 'succeeded')
    .sort((a, b) => b.scale - a.scale)[0];
  const post = useMutation({
    mutationFn: () =>
      createPost({
        imageId: image._id,
        ...(best && useUpscale ? { upscaleId: best._id } : {}),
        name,
        description,
      }),
    onSuccess: () => onPosted(),
    onError: (e) => setError(errorMessage(e)),
  });

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      setError('');
      dialog.showModal();
    } else if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      className="modal"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          post.mutate();
        }}
      >
        <h2 id={titleId}>Post to your profile</h2>
        <div className="field">
          <label htmlFor={`${titleId}-name`}>Name</label>
          <input
            id={`${titleId}-name`}
            value={name}
            required
            maxLength={100}
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${titleId}-description`}>Description</label>
          <textarea
            id={`${titleId}-description`}
            value={description}
            maxLength={1000}
            rows={3}
            onChange={(event) => setDescription(event.target.value)}
          />
        </div>
        {best ? (
          <label className="checkbox">
            <input
              type="checkbox"
              checked={useUpscale}
              onChange={(event) => setUseUpscale(event.target.checked)}
            />{' '}
            Post the {best.scale}× upscale ({best.width}×{best.height})
          </label>
        ) : null}
        {error ? (
          <p className="error-text" role="alert">
            {error}
          </p>
        ) : null}
        <div className="button-row">
          <button type="button" className="button button-ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={post.isPending}>
            Post
          </button>
        </div>
      </form>
    </dialog>
  );
}
