import type {
  AspectRatio,
  ImageModel,
  Prediction,
  PredictionPage,
  Upscale,
  UserPost,
} from '@chapterwise/shared';
import { FALLBACK_ERROR_MESSAGE } from '@chapterwise/shared';
import { ApiClientError, apiPath, apiRequest, readStoredToken } from '../../lib/api';

/** The image studio's calls (spec §7 Models). */

export const listBaseModels = () =>
  apiRequest<{ data: ImageModel[]; count: number }>('/models/getbasedreamboothmodels', {
    auth: false,
  });
export const listOwnModels = () =>
  apiRequest<{ data: ImageModel[]; count: number }>('/models/getusersdreamboothmodels');
export const getModel = (modelId: string) =>
  apiRequest<{ data: ImageModel }>('/models/getdreamboothmodel', { query: { modelId } });
export const deleteModel = (modelId: string) =>
  apiRequest('/models/deleteuserdreamboothmodel', { body: { modelId } });
export const changeModelPrivacy = (modelId: string, isPrivate: boolean) =>
  apiRequest<{ data: ImageModel }>('/models/changeuserdreamboothmodelprivacy', {
    body: { modelId, isPrivate },
  });

export const generateImages = (input: {
  modelId: string;
  prompt: string;
  negativePrompt: string;
  numImages: number;
  aspectRatio: AspectRatio;
}) => apiRequest<{ data: Prediction }>('/models/generatedreamboothimage', { body: input });
export const getPrediction = (id: string) =>
  apiRequest<{ data: Prediction }>('/models/getreplicateprediction', { query: { id } });
export const listPredictions = (modelId = 'all', page = 1) =>
  apiRequest<{ data: Prediction[]; count: number }>('/models/getpredictionsfordreamboothmodel', {
    query: { modelId, page, limit: 24 },
  });
export const deleteImage = (id: string) =>
  apiRequest('/models/deletedreamboothimage', { body: { id } });

export const upscaleImage = (imageId: string, scale: 2 | 4) =>
  apiRequest<{ data: Upscale }>('/models/upscaledreamboothimage', { body: { imageId, scale } });
export const getUpscale = (id: string) =>
  apiRequest<{ data: Upscale }>('/models/getreplicateupscaleprediction', { query: { id } });
/** `/models/useupscaleforproductimages`: an upscale becomes the artwork of shop products. */
export const makeProductsFromUpscale = (upscaleId: string) =>
  apiRequest<{ data: { _id: string; url: string; status: string; error?: string } }>(
    '/models/useupscaleforproductimages',
    { body: { upscaleId } },
  );
export const deleteUpscale = (id: string) =>
  apiRequest('/models/deletedreamboothupscale', { body: { id } });

export const createPost = (input: {
  imageId: string;
  upscaleId?: string;
  name: string;
  description: string;
}) => apiRequest<{ data: UserPost }>('/models/createuserprofilepost', { body: input });
export const listPosts = (username: string, fetcher?: typeof fetch) =>
  apiRequest<{ data: { posts: UserPost[]; count: number } }>('/models/getuserprofileposts', {
    query: { username },
    ...(fetcher ? { fetch: fetcher, auth: false } : {}),
  });
export const deletePost = (id: string) =>
  apiRequest('/models/deleteuserprofilepost', { body: { id } });
export const getPredictionPage = (username: string, url: string, fetcher?: typeof fetch) =>
  apiRequest<{ data: PredictionPage }>('/models/getdreamboothprediction', {
    query: { username, url },
    ...(fetcher ? { fetch: fetcher, auth: false } : {}),
  });

/**
 * `POST /models/create` as multipart/form-data, with upload progress (0–1): XMLHttpRequest,
 * since fetch reports no upload progress.
 */
export function createModel(
  form: FormData,
  onProgress: (fraction: number) => void,
): Promise<{ data: ImageModel }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiPath('/models/create'));
    const token = readStoredToken();
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onerror = () =>
      reject(
        new ApiClientError(
          'Could not reach the server. Check your connection and try again.',
          0,
          'NETWORK',
        ),
      );
    xhr.onload = () => {
      let json: { errors?: { message?: string; code?: string } } | undefined;
      try {
        json = JSON.parse(xhr.responseText) as typeof json;
      } catch {
        json = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(json as unknown as { data: ImageModel });
      else
        reject(
          new ApiClientError(
            json?.errors?.message || FALLBACK_ERROR_MESSAGE,
            xhr.status,
            json?.errors?.code ?? 'UNKNOWN',
          ),
        );
    };
    xhr.send(form);
  });
}
