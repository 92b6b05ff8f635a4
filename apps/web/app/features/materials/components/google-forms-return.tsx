import {
  GOOGLE_FORMS_ERROR_REASONS,
  GOOGLE_FORMS_RESULT_PARAM,
  type GoogleFormsErrorReason,
} from '@chapterwise/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useToast } from '../../../lib/toast';
import { googleKeys } from '../api';
import { googleFormsCreatedToast } from './google-forms-toast';

/**
 * After Google's consent page the server sends the teacher back to the page they were on with
 * `?googleForms=created&formId=…` or `?googleForms=error&reason=…`: this shows the outcome as a
 * toast and takes those parameters out of the address.
 */
export function GoogleFormsReturn() {
  const location = useLocation();
  const navigate = useNavigate();
  const toast = useToast();
  const queryClient = useQueryClient();

  useEffect(() => {
    const params = new URLSearchParams(location.search);
    const outcome = params.get(GOOGLE_FORMS_RESULT_PARAM);
    if (!outcome) return;
    const formId = params.get('formId');
    if (outcome === 'created' && formId) {
      const notes = (params.get('notes') ?? '').split('\n').filter(Boolean);
      toast(googleFormsCreatedToast(formId, Number(params.get('questions')) || 0, notes));
    } else {
      const reason = (params.get('reason') ?? 'failed') as GoogleFormsErrorReason;
      toast({
        title: 'Not sent to Google Forms',
        message: GOOGLE_FORMS_ERROR_REASONS[reason] ?? GOOGLE_FORMS_ERROR_REASONS.failed,
        tone: 'error',
        durationMs: 8000,
      });
    }
    void queryClient.invalidateQueries({ queryKey: googleKeys.status });
    for (const key of [GOOGLE_FORMS_RESULT_PARAM, 'formId', 'questions', 'notes', 'reason']) {
      params.delete(key);
    }
    const search = params.toString();
    void navigate(
      { pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash },
      { replace: true, preventScrollReset: true },
    );
  }, [location.search, location.pathname, location.hash, navigate, toast, queryClient]);

  return null;
}
