import {
  DEFAULT_MATERIAL_TYPES,
  EXPORT_NOTES_HEADER,
  type ExportFormatId,
  type GoogleStatus,
  type SendToGoogleFormsAnswer,
  type ChapterMaterialCard,
  type CheckGenerationAnswer,
  type GenerateMaterialInput,
  type Material,
  type MaterialListCard,
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

/** 'Your Materials': the cards' fields only (decision 026); a material opened is read whole. */
export const getMaterials = (setId?: string, limit = 24) =>
  apiRequest<{ generatedMaterials: { data: MaterialListCard[]; count: number } }>(
    '/materials/getusersmaterials',
    {
      query: { setId, limit, view: 'card' },
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
/** What a ready-made material's card on the chapter page shows: its data carries only these. */
export type ChapterMaterialCardData = Pick<
  ChapterMaterialCard,
  '_id' | 'name' | 'grade' | 'type' | 'questionCount' | 'hasLesson'
>;

/** Keeps a card's fields only: the chapter page's hydration data stays small (issue 18). */
export function toChapterMaterialCardData(material: ChapterMaterialCard): ChapterMaterialCardData {
  const { _id, name, grade, type, questionCount, hasLesson } = material;
  return { _id, name, grade, type, questionCount, hasLesson };
}

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

const isUnfinished = (m: MaterialListCard) => m.status === 'pending' || m.status === 'running';

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

/** What is exported: one material, or a folder (one file, or a zip of one file each). */
export type ExportTarget = { materialId: string } | { setId: string };

/** Fetches an export with the bearer token (a plain link would not carry it). */
async function fetchExport(
  target: ExportTarget,
  format: ExportFormatId,
  copy: 'teacher' | 'student',
): Promise<Response> {
  const token = readStoredToken();
  const url =
    'materialId' in target
      ? apiPath('/materials/exportmaterial', { id: target.materialId, format, copy })
      : apiPath('/materials/exportset', { id: target.setId, format, copy });
  const response = await fetch(url, {
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
  return response;
}

/** The lines of the export's notes header: what the format shortened or left out. */
function exportNotes(response: Response): string[] {
  const header = response.headers.get(EXPORT_NOTES_HEADER);
  return header ? decodeURIComponent(header).split('\n').filter(Boolean) : [];
}

/**
 * Downloads an export and saves it under the server's file name. Returns what the format
 * shortened or left out, for the menu to tell the teacher.
 */
export async function downloadExport(
  target: ExportTarget | string,
  format: ExportFormatId,
  copy: 'teacher' | 'student' = 'teacher',
): Promise<{ fileName: string; notes: string[] }> {
  const response = await fetchExport(
    typeof target === 'string' ? { materialId: target } : target,
    format,
    copy,
  );
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
  return { fileName, notes: exportNotes(response) };
}

/** The Quizlet cards of a material or folder as text (term, tab, definition; one a line). */
export async function fetchQuizletText(target: ExportTarget): Promise<string> {
  return (await fetchExport(target, 'quizlet', 'teacher')).text();
}

/* ------------------------------------------------------------------------------------------ */
/* Send to Google Forms                                                                         */
/* ------------------------------------------------------------------------------------------ */

export const googleKeys = { status: ['google', 'status'] as const };

export const getGoogleStatus = () => apiRequest<GoogleStatus>('/google/status');

/** Whether the server offers Google Forms and the teacher's connection (asked when needed). */
export function useGoogleStatus(enabled: boolean) {
  return useQuery({
    queryKey: googleKeys.status,
    queryFn: getGoogleStatus,
    enabled,
    staleTime: 60_000,
  });
}

/** Makes the quiz, or answers Google's consent page to open first. */
export const sendToGoogleForms = (id: string, returnTo: string) =>
  apiRequest<{ data: SendToGoogleFormsAnswer }>('/google/forms', {
    method: 'POST',
    body: { id, returnTo },
  }).then((answer) => answer.data);

export function useDisconnectGoogle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('/google/disconnect', { method: 'POST' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: googleKeys.status }),
  });
}
