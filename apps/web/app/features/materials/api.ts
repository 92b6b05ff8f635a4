import {
  DEFAULT_MATERIAL_TYPES,
  type ChapterMaterialCard,
  type CheckGenerationAnswer,
  type GenerateMaterialInput,
  type Material,
  type MaterialSet,
  type UpdateMaterialInput,
} from '@chapterwise/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiClientError, apiPath, apiRequest, readStoredToken } from '../../lib/api';

/** Query keys of the materials feature. */
export const materialKeys = {
  all: ['materials'] as const,
  types: ['materials', 'types'] as const,
  sets: ['materials', 'sets'] as const,
  set: (id: string) => ['materials', 'sets', id] as const,
  list: (setId?: string, limit = 24) => ['materials', 'list', setId ?? 'all', limit] as const,
  one: (id: string) => ['materials', 'one', id] as const,
};

/* ------------------------------------------------------------------------------------------ */
/* Fetchers                                                                                    */
/* ------------------------------------------------------------------------------------------ */

export const getMaterialTypes = () =>
  apiRequest<string[]>('/materials/getavailablematerialtypes', { auth: false });

export const getMaterialSets = () =>
  apiRequest<{ materialSets: { data: MaterialSet[]; count: number } }>(
    '/materials/getusersmaterialsets',
    {
      query: { limit: 100 },
    },
  ).then((a) => a.materialSets);

export const getMaterialSet = (id: string) =>
  apiRequest<{ data: MaterialSet }>('/materials/getmaterialset', { query: { id } }).then(
    (a) => a.data,
  );

export const getMaterials = (setId?: string, limit = 24) =>
  apiRequest<{ generatedMaterials: { data: Material[]; count: number } }>(
    '/materials/getusersmaterials',
    {
      query: { setId, limit },
    },
  ).then((a) => a.generatedMaterials);

export const getMaterial = (id: string) =>
  apiRequest<{ data: Material }>('/materials/getmaterial', { query: { id } }).then((a) => a.data);

/** A ready-made (platform) material, readable by anyone: sent without the session token. */
export const getPublicMaterial = (id: string) =>
  apiRequest<{ data: Material }>('/materials/getmaterial', { query: { id }, auth: false }).then(
    (a) => a.data,
  );

export const generateMaterial = (input: GenerateMaterialInput) =>
  apiRequest<{ materialId: string }>('/materials/generatematerial', {
    method: 'POST',
    body: input,
  });

export const checkGeneration = (id: string) =>
  apiRequest<CheckGenerationAnswer>('/materials/checkgeneration', { method: 'POST', body: { id } });

/** What the chapter endpoint of the catalogue answers (api-shapes.md, Books). */
export interface ChapterAnswer {
  data: {
    book: { title: string; url: string; subject?: string; authors?: Array<{ name: string }> };
    chapter: { title: string; url: string; text: string; wordCount?: number };
  };
}

/** The platform's ready-made materials of a chapter (public; the chapter page's loader). */
export const fetchChapterMaterials = (
  bookUrl: string,
  chapterUrl: string,
  fetch?: typeof globalThis.fetch,
) =>
  apiRequest<{ data: ChapterMaterialCard[]; count: number }>(
    '/materials/getavailablechaptermaterials',
    {
      query: { bookUrl, chapterUrl },
      auth: false,
      ...(fetch ? { fetch } : {}),
    },
  );

export const getChapter = (bookUrl: string, chapterUrl: string) =>
  apiRequest<ChapterAnswer>('/getgutenbergbookchapter', {
    query: { url: bookUrl, chapterUrl },
    auth: false,
  });

/* ------------------------------------------------------------------------------------------ */
/* Hooks                                                                                       */
/* ------------------------------------------------------------------------------------------ */

/** The types on offer: the spec's default list until the server's list arrives (spec §9). */
export function useMaterialTypes() {
  return useQuery({
    queryKey: materialKeys.types,
    queryFn: getMaterialTypes,
    placeholderData: [...DEFAULT_MATERIAL_TYPES],
    staleTime: 5 * 60_000,
  });
}

export function useMaterialSets(enabled = true) {
  return useQuery({ queryKey: materialKeys.sets, queryFn: getMaterialSets, enabled });
}

export function useMaterialSet(id: string) {
  return useQuery({
    queryKey: materialKeys.set(id),
    queryFn: () => getMaterialSet(id),
    retry: false,
  });
}

const isUnfinished = (m: Material) => m.status === 'pending' || m.status === 'running';

/** The user's newest materials (`limit` of them); while any is still generating the list refreshes every 2 s. */
export function useMaterials(setId?: string, limit = 24) {
  return useQuery({
    queryKey: materialKeys.list(setId, limit),
    queryFn: () => getMaterials(setId, limit),
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.data.some(isUnfinished) ? 2000 : false),
  });
}

export function useMaterial(id: string) {
  return useQuery({ queryKey: materialKeys.one(id), queryFn: () => getMaterial(id), retry: false });
}

export function useCreateSet() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) =>
      apiRequest<{ data: MaterialSet }>('/materials/createset', {
        method: 'POST',
        body: { name },
      }).then((a) => a.data),
    onSuccess: () => client.invalidateQueries({ queryKey: materialKeys.sets }),
  });
}

export function useDeleteSet() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest('/materials/deletematerialset', { method: 'POST', body: { _id: id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: materialKeys.all }),
  });
}

export function useDeleteMaterial() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest('/materials/deletegeneratedmaterial', { method: 'POST', body: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: materialKeys.all }),
  });
}

export function useMoveMaterial() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, setId }: { id: string; setId: string | null }) =>
      apiRequest<{ data: Material }>('/materials/movegeneratedmaterial', {
        method: 'POST',
        body: { id, setId },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: materialKeys.all }),
  });
}

/** Saves a teacher's edit (`POST /materials/updatematerial`); the answer is the stored material. */
export const updateMaterial = (input: UpdateMaterialInput) =>
  apiRequest<{ data: Material }>('/materials/updatematerial', {
    method: 'POST',
    body: input,
  }).then((a) => a.data);

export function useUpdateMaterial() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateMaterial,
    onSuccess: async (material) => {
      client.setQueryData(materialKeys.one(material._id), material);
      await client.invalidateQueries({
        queryKey: materialKeys.all,
        predicate: (query) => query.queryKey[1] !== 'one',
      });
    },
  });
}

/**
 * Downloads an export (the API needs the bearer token, so a plain link will not do): fetches
 * the file and saves it under the server's file name.
 */
export async function downloadExport(
  id: string,
  format: 'docx' | 'txt',
  copy: 'teacher' | 'student' = 'teacher',
) {
  const token = readStoredToken();
  const response = await fetch(apiPath('/materials/exportmaterial', { id, format, copy }), {
    headers: token ? { authorization: `Bearer ${token}` } : {},
    cache: 'no-store',
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as {
      errors?: { message?: string; code?: string };
    } | null;
    throw new ApiClientError(
      body?.errors?.message ?? 'The export failed.',
      response.status,
      body?.errors?.code ?? 'UNKNOWN',
    );
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const name = /filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1];
  const fileName = name ? decodeURIComponent(name) : `material.${format}`;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
