import {
  ASPECT_RATIOS,
  IMAGE_LIMITS,
  SUBJECT_CLASSES,
  type AspectRatio,
  type ImageModel,
  type Prediction,
} from '@chapterwise/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type ComponentType, type ReactNode } from 'react';
import type { OwnUser } from '@chapterwise/shared';
import { useSearchParams } from 'react-router';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { errorMessage } from '../../../lib/api';
import { useSession } from '../../../lib/session';
import { useToast } from '../../../lib/toast';
import {
  changeModelPrivacy,
  createModel,
  deleteModel,
  generateImages,
  getPrediction,
  listBaseModels,
  listOwnModels,
  listPredictions,
} from '../api';
import { ImageCard } from './image-card';

/** The spec's completion check: every 2 seconds. */
const POLL_MS = 2000;
const RATIO_LABELS: Record<AspectRatio, string> = {
  '1:1': 'Square (1:1)',
  '4:3': 'Landscape (4:3)',
  '3:4': 'Portrait (3:4)',
  '16:9': 'Wide (16:9)',
  '9:16': 'Tall (9:16)',
};
const CLASS_LABELS: Record<string, string> = {
  person: 'A person',
  pet: 'A pet',
  object: 'An object',
  style: 'A style',
};

export interface StudioParts {
  /** Tabs over sections (the account's SectionTabs). */
  Tabs: ComponentType<{
    sections: { id: string; label: string; content: ReactNode }[];
    current: string;
    onSelect: (id: string) => void;
    label: string;
  }>;
  /** The Buy Credits modal (billing's). */
  BuyDialog: ComponentType<{ open: boolean; onClose: () => void; user: OwnUser | null }>;
}

/**
 * /generate: Create, My models, My images, and the credit balance with Buy Credits. The tabs and
 * the Buy Credits modal come from other features, composed by the route.
 */
export function Studio({ Tabs, BuyDialog }: StudioParts) {
  const { user } = useSession();
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') ?? 'create';
  const [buying, setBuying] = useState(false);
  const credits = user?.imageGenerationCredits ?? 0;
  const training = user?.modelTrainingCredits ?? 0;
  const openBuy = () => setBuying(true);
  return (
    <div className="container page studio">
      <div className="studio-head">
        <div>
          <h1>Image Studio</h1>
          <p className="muted">
            Pictures for your lessons, from a prompt or from a model of your own.
          </p>
        </div>
        <div className="credit-box" aria-live="polite">
          <p>
            <strong data-testid="image-credits">{credits}</strong> image credit
            {credits === 1 ? '' : 's'} · <strong data-testid="training-credits">{training}</strong>{' '}
            model training credit
            {training === 1 ? '' : 's'}
          </p>
          <button type="button" className="button button-ghost" onClick={openBuy}>
            Buy Credits
          </button>
        </div>
      </div>
      {credits === 0 ? (
        <p className="notice" role="note">
          You have no image credits left.{' '}
          <button type="button" className="link-button" onClick={openBuy}>
            Buy Image Generation Credits
          </button>{' '}
          to keep generating.
        </p>
      ) : null}
      <BuyDialog open={buying} onClose={() => setBuying(false)} user={user} />
      <Tabs
        label="Image studio"
        current={tab}
        onSelect={(id) => setParams({ tab: id }, { replace: true, preventScrollReset: true })}
        sections={[
          { id: 'create', label: 'Create', content: <CreatePanel onNoCredits={openBuy} /> },
          { id: 'models', label: 'My models', content: <ModelsPanel onNoCredits={openBuy} /> },
          { id: 'images', label: 'My images', content: <ImagesPanel onNoCredits={openBuy} /> },
        ]}
      />
    </div>
  );
}

function useModels() {
  const base = useQuery({
    queryKey: ['images', 'base-models'],
    queryFn: listBaseModels,
    staleTime: Infinity,
  });
  const own = useQuery({
    queryKey: ['images', 'models'],
    queryFn: listOwnModels,
    refetchInterval: (query) =>
      query.state.data?.data.some((m) => m.status === 'queued' || m.status === 'training')
        ? 1000
        : false,
  });
  return { base: base.data?.data ?? [], own: own.data?.data ?? [], loading: own.isLoading };
}

/* ------------------------------------------------------------------------------------------- */

function CreatePanel({ onNoCredits }: { onNoCredits: () => void }) {
  const id = useId();
  const session = useSession();
  const queryClient = useQueryClient();
  const { base, own } = useModels();
  const [params] = useSearchParams();
  const [modelId, setModelId] = useState(params.get('model') ?? 'base-illustration');
  const [prompt, setPrompt] = useState('');
  const [negativePrompt, setNegativePrompt] = useState('');
  const [numImages, setNumImages] = useState(1);
  const [aspectRatio, setAspectRatio] = useState<AspectRatio>('1:1');
  const [error, setError] = useState('');
  const [currentId, setCurrentId] = useState<string | null>(null);

  const current = useQuery({
    queryKey: ['images', 'prediction', currentId],
    queryFn: () => getPrediction(currentId!).then((a) => a.data),
    enabled: !!currentId,
    refetchInterval: (query) => {
      const data = query.state.data;
      if (!data || data.status === 'queued' || data.status === 'running') return POLL_MS;
      const upscaling = data.images.some((i) =>
        i.upscales.some((u) => u.status === 'queued' || u.status === 'running'),
      );
      return upscaling ? POLL_MS : false;
    },
  });
  const running = current.data
    ? current.data.status === 'queued' || current.data.status === 'running'
    : !!currentId;

  const start = useMutation({
    mutationFn: () => generateImages({ modelId, prompt, negativePrompt, numImages, aspectRatio }),
    onSuccess: async (answer) => {
      setError('');
      setCurrentId(answer.data._id);
      queryClient.setQueryData(['images', 'prediction', answer.data._id], answer.data);
      await session.refresh();
    },
    onError: (e) => {
      setError(errorMessage(e));
      if ((e as { status?: number }).status === 402) onNoCredits();
    },
  });

  const prediction = current.data;
  const ready = own.filter((m) => m.status === 'ready');
  const engine = base[0]?.engine;
  const credits = session.user?.imageGenerationCredits ?? 0;
  const finished = prediction?.status === 'succeeded';
  useEffect(() => {
    if (finished) void queryClient.invalidateQueries({ queryKey: ['images', 'predictions'] });
  }, [finished, queryClient]);

  return (
    <div className="studio-create">
      <form
        className="card studio-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (credits < numImages) {
            setError(
              numImages === 1
                ? 'You need an image credit to generate an image. Buy Image Generation Credits to continue.'
                : `You need ${numImages} image credits to generate ${numImages} images. Buy Image Generation Credits to continue.`,
            );
            onNoCredits();
            return;
          }
          start.mutate();
        }}
      >
        <div className="field">
          <label htmlFor={`${id}-prompt`}>Prompt</label>
          <textarea
            id={`${id}-prompt`}
            required
            rows={3}
            maxLength={IMAGE_LIMITS.promptChars}
            placeholder="A lighthouse on a hill by the sea at sunset"
            value={prompt}
            disabled={running}
            onChange={(event) => setPrompt(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-negative`}>Negative prompt (optional)</label>
          <input
            id={`${id}-negative`}
            maxLength={IMAGE_LIMITS.negativePromptChars}
            placeholder="Things to leave out"
            value={negativePrompt}
            disabled={running}
            onChange={(event) => setNegativePrompt(event.target.value)}
          />
        </div>
        <div className="studio-row">
          <div className="field">
            <label htmlFor={`${id}-model`}>Model</label>
            <select
              id={`${id}-model`}
              value={modelId}
              disabled={running}
              onChange={(e) => setModelId(e.target.value)}
            >
              <optgroup label="Base models">
                {base.map((m) => (
                  <option key={m._id} value={m._id}>
                    {m.name}
                  </option>
                ))}
              </optgroup>
              {ready.length ? (
                <optgroup label="Your models">
                  {ready.map((m) => (
                    <option key={m._id} value={m._id}>
                      {m.name}
                    </option>
                  ))}
                </optgroup>
              ) : null}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-count`}>Number of images</label>
            <select
              id={`${id}-count`}
              value={numImages}
              disabled={running}
              onChange={(e) => setNumImages(Number(e.target.value))}
            >
              {[1, 2, 3, 4].map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-ratio`}>Aspect ratio</label>
            <select
              id={`${id}-ratio`}
              value={aspectRatio}
              disabled={running}
              onChange={(e) => setAspectRatio(e.target.value as AspectRatio)}
            >
              {ASPECT_RATIOS.map((r) => (
                <option key={r} value={r}>
                  {RATIO_LABELS[r]}
                </option>
              ))}
            </select>
          </div>
        </div>
        {engine === 'local' ? (
          <p className="field-hint">
            Offline preview: without an image service, pictures are drawn from your prompt’s words
            (colours, scenes, shapes) and labelled “offline preview”.
          </p>
        ) : null}
        <p className="field-hint">
          Each image costs 1 image credit. Prompts must suit a classroom.
        </p>
        {error ? (
          <p className="alert alert-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="button-row">
          <button
            type="submit"
            className="button button-primary"
            disabled={running || start.isPending}
          >
            {running ? 'Generating' : 'Generate'}
          </button>
        </div>
      </form>
      <section aria-labelledby={`${id}-results`} className="studio-results">
        <h2 id={`${id}-results`}>Results</h2>
        <p role="status" aria-live="polite" className="muted" data-testid="generation-status">
          {statusText(prediction, running)}
        </p>
        {prediction?.status === 'failed' || prediction?.status === 'canceled' ? (
          <p className="alert alert-error" role="alert">
            {prediction.error}
          </p>
        ) : null}
        {running ? (
          <div className="progress indeterminate" aria-hidden="true">
            <span />
          </div>
        ) : null}
        {prediction?.images.length ? (
          <ul className="image-grid" aria-label="Generated images">
            {prediction.images.map((image) => (
              <ImageCard key={image._id} image={image} onNoCredits={onNoCredits} />
            ))}
          </ul>
        ) : null}
      </section>
    </div>
  );
}

function statusText(prediction: Prediction | undefined, running: boolean): string {
  if (!prediction) return running ? 'Starting…' : 'Your images will appear here.';
  const n = prediction.numImages;
  if (prediction.status === 'queued') return `Queued: ${n} image${n === 1 ? '' : 's'}…`;
  if (prediction.status === 'running') return `Generating ${n} image${n === 1 ? '' : 's'}…`;
  if (prediction.status === 'succeeded')
    return `Finished: ${prediction.images.length} image${prediction.images.length === 1 ? '' : 's'}.`;
  return 'The generation did not finish.';
}

/* ------------------------------------------------------------------------------------------- */

function ModelsPanel({ onNoCredits }: { onNoCredits: () => void }) {
  const id = useId();
  const session = useSession();
  const queryClient = useQueryClient();
  const toast = useToast();
  const { own, loading } = useModels();
  const [name, setName] = useState('');
  const [subjectClass, setSubjectClass] = useState('pet');
  const [triggerWord, setTriggerWord] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [dragging, setDragging] = useState(false);
  const [upload, setUpload] = useState<number | null>(null);
  const [error, setError] = useState('');
  const [removing, setRemoving] = useState<ImageModel | null>(null);
  const input = useRef<HTMLInputElement>(null);

  const addFiles = (list: FileList | null) => {
    if (!list) return;
    const added = Array.from(list); // before the input is cleared
    setFiles((current) => [...current, ...added].slice(0, 40));
  };

  const train = useMutation({
    mutationFn: () => {
      const form = new FormData();
      form.append('name', name);
      form.append('subjectClass', subjectClass);
      form.append('triggerWord', triggerWord);
      for (const file of files) form.append('photos', file, file.name);
      setUpload(0);
      return createModel(form, setUpload);
    },
    onSuccess: async () => {
      setUpload(null);
      setError('');
      setFiles([]);
      setName('');
      setTriggerWord('');
      await queryClient.invalidateQueries({ queryKey: ['images', 'models'] });
      await session.refresh();
    },
    onError: (e) => {
      setUpload(null);
      setError(errorMessage(e));
      if ((e as { status?: number }).status === 402) onNoCredits();
    },
  });
  const privacy = useMutation({
    mutationFn: (model: ImageModel) => changeModelPrivacy(model._id, !model.isPrivate),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['images', 'models'] }),
  });
  const remove = useMutation({
    mutationFn: (model: ImageModel) => deleteModel(model._id),
    onSuccess: async () => {
      setRemoving(null);
      toast({
        title: 'Model Deleted',
        message: 'Model successfully deleted!',
        tone: 'success',
        durationMs: 4000,
      });
      await queryClient.invalidateQueries({ queryKey: ['images'] });
    },
  });

  const count = files.length;
  const countOk = count >= IMAGE_LIMITS.minPhotos && count <= IMAGE_LIMITS.maxPhotos;
  return (
    <div className="studio-models">
      <form
        className="card studio-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (!countOk) {
            setError(
              `Add ${IMAGE_LIMITS.minPhotos} to ${IMAGE_LIMITS.maxPhotos} photos (you have ${count}).`,
            );
            return;
          }
          train.mutate();
        }}
      >
        <h2>Train a model</h2>
        <p className="muted">
          A custom model learns one subject from 5 to 30 photos: your class pet, a mascot, an
          object, or a drawing style. It costs 1 model training credit and stays private until you
          share it.
        </p>
        <div className="studio-row">
          <div className="field">
            <label htmlFor={`${id}-name`}>Model name</label>
            <input
              id={`${id}-name`}
              required
              maxLength={60}
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-class`}>Subject</label>
            <select
              id={`${id}-class`}
              value={subjectClass}
              onChange={(e) => setSubjectClass(e.target.value)}
            >
              {SUBJECT_CLASSES.map((c) => (
                <option key={c} value={c}>
                  {CLASS_LABELS[c]}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-trigger`}>Trigger word</label>
            <input
              id={`${id}-trigger`}
              required
              maxLength={24}
              pattern="[A-Za-z][A-Za-z0-9_\-]*"
              aria-describedby={`${id}-trigger-hint`}
              value={triggerWord}
              onChange={(e) => setTriggerWord(e.target.value)}
            />
            <p className="field-hint" id={`${id}-trigger-hint`}>
              One made-up word (like “rexdog”) that means your subject in prompts.
            </p>
          </div>
        </div>
        <div
          className={`drop-zone${dragging ? ' is-dragging' : ''}`}
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(event) => {
            event.preventDefault();
            setDragging(false);
            addFiles(event.dataTransfer.files);
          }}
        >
          <p>Drag and drop photos here, or</p>
          <label className="button button-ghost" htmlFor={`${id}-photos`}>
            Choose photos
          </label>
          <input
            ref={input}
            id={`${id}-photos`}
            className="visually-hidden"
            type="file"
            multiple
            accept="image/jpeg,image/png,image/webp,image/heic,.heic,.heif"
            onChange={(event) => {
              addFiles(event.target.files);
              event.target.value = '';
            }}
          />
          <p className="field-hint">
            JPEG, PNG, HEIC or WebP; 5–30 photos, up to 15 MB each. Location and camera details are
            removed.
          </p>
        </div>
        <p className="notice" role="note">
          Only use photos you have the right to use. Do not upload photos of children’s faces:
          pupils and other minors must not be used to train a model.
        </p>
        {count ? (
          <div className="photo-list">
            <p aria-live="polite" data-testid="photo-count">
              {count} photo{count === 1 ? '' : 's'} chosen
              {countOk ? '' : ` (need ${IMAGE_LIMITS.minPhotos}–${IMAGE_LIMITS.maxPhotos})`}
            </p>
            <ul>
              {files.map((file, index) => (
                <li key={`${file.name}-${index}`}>
                  {file.name}{' '}
                  <button
                    type="button"
                    className="link-button"
                    aria-label={`Remove ${file.name}`}
                    onClick={() => setFiles((all) => all.filter((_, i) => i !== index))}
                  >
                    Remove
                  </button>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {upload !== null ? (
          <div className="field">
            <label htmlFor={`${id}-upload`}>Uploading photos</label>
            <progress id={`${id}-upload`} max={100} value={Math.round(upload * 100)} />
          </div>
        ) : null}
        {error ? (
          <p className="alert alert-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="button-row">
          <button type="submit" className="button button-primary" disabled={train.isPending}>
            Train model
          </button>
        </div>
      </form>

      <section aria-labelledby={`${id}-list`}>
        <h2 id={`${id}-list`}>My models</h2>
        {loading ? <p className="muted">Loading…</p> : null}
        {!loading && own.length === 0 ? (
          <p className="muted">You don’t have any models yet. Train one from your photos above.</p>
        ) : null}
        <ul className="model-grid">
          {own.map((model) => (
            <li key={model._id} className="card model-card">
              {model.cover ? (
                <img src={model.cover} alt={`Cover of ${model.name}`} width={160} height={160} />
              ) : (
                <div className="model-cover-empty" aria-hidden="true" />
              )}
              <div className="model-body">
                <h3>{model.name}</h3>
                <p className="muted">
                  {CLASS_LABELS[model.subjectClass ?? 'object']} · trigger word “{model.triggerWord}
                  ” · {model.photoCount} photos · {model.isPrivate ? 'Private' : 'Public'}
                </p>
                <p className="model-status" data-testid="model-status">
                  <span className={`badge status-${model.status}`}>
                    {STATUS_LABELS[model.status]}
                  </span>
                  {model.error ? <span className="error-text"> {model.error}</span> : null}
                </p>
                {model.status === 'queued' || model.status === 'training' ? (
                  <progress
                    max={100}
                    value={model.progress}
                    aria-label={`Training ${model.name}`}
                  />
                ) : null}
                <div className="button-row">
                  {model.status === 'ready' ? (
                    <a
                      className="button button-primary button-sm"
                      href={`/generate?tab=create&model=${model._id}`}
                    >
                      Generate with it
                    </a>
                  ) : null}
                  <button
                    type="button"
                    className="button button-ghost button-sm"
                    onClick={() => privacy.mutate(model)}
                  >
                    {model.isPrivate ? 'Make public' : 'Make private'}
                  </button>
                  <button
                    type="button"
                    className="button button-ghost danger button-sm"
                    onClick={() => setRemoving(model)}
                  >
                    Delete
                  </button>
                </div>
              </div>
            </li>
          ))}
        </ul>
      </section>
      <ConfirmDialog
        open={!!removing}
        title="Are you sure?"
        message="Are you sure you want to permanently delete this model? Its images and posts are deleted with it."
        confirmLabel="Delete"
        busy={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing)}
        onCancel={() => setRemoving(null)}
      />
    </div>
  );
}

const STATUS_LABELS: Record<string, string> = {
  queued: 'Queued',
  training: 'Training',
  ready: 'Ready',
  failed: 'Failed',
};

/* ------------------------------------------------------------------------------------------- */

function ImagesPanel({ onNoCredits }: { onNoCredits: () => void }) {
  const list = useQuery({
    queryKey: ['images', 'predictions'],
    queryFn: () => listPredictions('all'),
    refetchInterval: (query) =>
      query.state.data?.data.some(
        (p) =>
          p.status === 'queued' ||
          p.status === 'running' ||
          p.images.some((i) =>
            i.upscales.some((u) => u.status === 'queued' || u.status === 'running'),
          ),
      )
        ? POLL_MS
        : false,
  });
  const images = (list.data?.data ?? []).flatMap((p) => p.images);
  if (list.isLoading) return <p className="muted">Loading…</p>;
  if (list.error) return <p className="alert alert-error">{errorMessage(list.error)}</p>;
  if (!images.length) {
    return (
      <p className="muted">
        You don’t have any images yet. When you generate images they will appear here.
      </p>
    );
  }
  return (
    <ul className="image-grid" aria-label="My images">
      {images.map((image) => (
        <ImageCard key={image._id} image={image} onNoCredits={onNoCredits} />
      ))}
    </ul>
  );
}
