import { GENERATION_CHECK_INTERVAL_MS, IMAGE_LIMITS } from '@chapterwise/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { ErrorBox } from '../../../components/ui/error-box';
import { ApiClientError, errorMessage } from '../../../lib/api';
import { useSession } from '../../../lib/session';
import { checkGeneration, startGeneration } from '../api';

/**
 * Turns a prompt into an artwork and its products: starts a generation, checks it every 2 s
 * (spec §9) and opens the artwork's page when its products are ready. One image credit.
 */
export function GenerationForm({ onNoCredits }: { onNoCredits: () => void }) {
  const id = useId();
  const session = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [prompt, setPrompt] = useState('');
  const [running, setRunning] = useState(false);
  const [log, setLog] = useState('');
  const [error, setError] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const credits = session.user?.imageGenerationCredits ?? 0;

  const fail = (caught: unknown) => {
    setRunning(false);
    setLog('');
    setError(errorMessage(caught));
    if (caught instanceof ApiClientError && caught.status === 402) onNoCredits();
  };

  const poll = (generationId: string, url: string) => {
    timer.current = setTimeout(async () => {
      try {
        const answer = await checkGeneration(generationId);
        if (!answer.finished) {
          setLog(
            answer.status === 'making_products'
              ? 'Making your products and their mockups…'
              : 'Drawing your artwork…',
          );
          poll(generationId, url);
          return;
        }
        setRunning(false);
        await queryClient.invalidateQueries({ queryKey: ['shop'] });
        if (answer.status === 'failed') {
          setLog('');
          setError(answer.error ?? 'The artwork could not be made.');
          return;
        }
        setLog('Finished');
        void navigate(`/shop/${encodeURIComponent(url)}`);
      } catch (caught) {
        fail(caught);
      }
    }, GENERATION_CHECK_INTERVAL_MS);
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (running || !prompt.trim()) return;
    setError('');
    setRunning(true);
    setLog('Drawing your artwork…');
    try {
      const { generationId, url } = await startGeneration(prompt.trim());
      void session.refresh();
      poll(generationId, url);
    } catch (caught) {
      fail(caught);
    }
  };

  return (
    <form className="card generation-form" onSubmit={(e) => void submit(e)} aria-busy={running}>
      <h2>Make your own</h2>
      <p className="muted">
        Describe a picture for your classroom. It becomes an artwork printed on a framed poster, a
        mug, a t-shirt and a tote bag. One image credit ({credits} left).
      </p>
      <label htmlFor={`${id}-prompt`}>Prompt</label>
      <textarea
        id={`${id}-prompt`}
        name="prompt"
        rows={3}
        maxLength={IMAGE_LIMITS.promptChars}
        value={prompt}
        disabled={running}
        onChange={(e) => setPrompt(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey) {
            e.preventDefault();
            void submit(e);
          }
        }}
        placeholder="A friendly owl reading under a starry sky, watercolour"
        required
      />
      <ErrorBox message={error} />
      <div className="button-row">
        <button
          type="submit"
          className="button button-primary"
          disabled={running || !prompt.trim()}
        >
          {running ? <span className="spinner" aria-hidden="true" /> : null}
          {running ? 'Generating' : 'Generate products'}
        </button>
        <span className="muted" role="status" aria-live="polite">
          {log}
        </span>
      </div>
    </form>
  );
}
