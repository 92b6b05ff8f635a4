import { GENERATION_CHECK_INTERVAL_MS, type GenerateMaterialInput } from '@chapterwise/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiClientError, errorMessage } from '../../lib/api';
import { checkGeneration, generateMaterial, materialKeys } from './api';

export type GenerationPhase = 'idle' | 'generating' | 'finished' | 'failed';

export interface GenerationState {
  phase: GenerationPhase;
  /** The log line under the button ('Finished' when done, spec §4). */
  log: string;
  error: string | null;
  /** The server said the user has no credits and no subscription (402). */
  needsSubscription: boolean;
  materialId: string | null;
}

/**
 * The generation flow of spec §4: start, then ask every 2000 ms whether it has finished; when
 * it has, reload the list and log 'Finished'. A start or check error (or a failed generation)
 * resets the button and shows the error.
 */
export function useGeneration(
  options: { onStarted?: () => void; onFinished?: () => void; onFailed?: () => void } = {},
) {
  const client = useQueryClient();
  const [state, setState] = useState<GenerationState>({
    phase: 'idle',
    log: '',
    error: null,
    needsSubscription: false,
    materialId: null,
  });
  const timer = useRef<number | undefined>(undefined);
  const callbacks = useRef(options);
  callbacks.current = options;

  useEffect(() => () => window.clearTimeout(timer.current), []);

  const poll = useCallback(
    (id: string) => {
      timer.current = window.setTimeout(async () => {
        try {
          const answer = await checkGeneration(id);
          if (answer.finished) {
            await client.invalidateQueries({ queryKey: materialKeys.all });
            callbacks.current.onFinished?.();
            setState((s) => ({ ...s, phase: 'finished', log: 'Finished' }));
            return;
          }
          if (answer.status === 'failed') {
            await client.invalidateQueries({ queryKey: materialKeys.all });
            callbacks.current.onFailed?.();
            setState((s) => ({
              ...s,
              phase: 'failed',
              log: '',
              error: answer.error ?? 'The generation failed.',
            }));
            return;
          }
          poll(id);
        } catch (error) {
          setState((s) => ({ ...s, phase: 'failed', log: '', error: errorMessage(error) }));
        }
      }, GENERATION_CHECK_INTERVAL_MS);
    },
    [client],
  );

  const start = useCallback(
    async (input: GenerateMaterialInput) => {
      window.clearTimeout(timer.current);
      setState({
        phase: 'generating',
        log: 'Generating…',
        error: null,
        needsSubscription: false,
        materialId: null,
      });
      try {
        const { materialId } = await generateMaterial(input);
        callbacks.current.onStarted?.();
        setState((s) => ({ ...s, materialId }));
        await client.invalidateQueries({ queryKey: materialKeys.all });
        poll(materialId);
      } catch (error) {
        setState({
          phase: 'failed',
          log: '',
          error: errorMessage(error),
          needsSubscription: error instanceof ApiClientError && error.status === 402,
          materialId: null,
        });
      }
    },
    [client, poll],
  );

  return { ...state, start };
}
