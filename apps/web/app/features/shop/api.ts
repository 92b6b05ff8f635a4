import type {
  CheckoutAnswer,
  CheckShopGenerationAnswer,
  Generation,
  Product,
  ProductWithGeneration,
  ShopSort,
} from '@chapterwise/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';

/** The shop's calls (spec §7 Generations, products; Payment). */

export const startGeneration = (prompt: string) =>
  apiRequest<{ generationId: string; url: string }>('/startgeneration', { body: { prompt } });
export const checkGeneration = (id: string) =>
  apiRequest<CheckShopGenerationAnswer>('/checkgeneration', { body: { id } });
export const deleteGeneration = (id: string) => apiRequest('/deletegeneration', { body: { id } });

export const getGeneration = (url: string, fetcher?: typeof fetch) =>
  apiRequest<{ data: Generation }>('/getgeneration', {
    query: { url },
    ...(fetcher ? { fetch: fetcher, auth: false } : {}),
  });
export const listGenerations = (sort: ShopSort, searchTerm: string, page: number) =>
  apiRequest<{ data: Generation[]; count: number }>('/getgenerations', {
    query: { sort, searchTerm, page, limit: 12 },
    auth: false,
  });
export const listProducts = (sort: ShopSort, page: number) =>
  apiRequest<{ data: Product[]; count: number }>('/getproducts', {
    query: { sort, page, limit: 24 },
    auth: false,
  });
export const listFeaturedProducts = () =>
  apiRequest<{ data: Product[]; count: number }>('/getfeaturedproducts', { auth: false });
export const listProductsForGeneration = (id: string, fetcher?: typeof fetch) =>
  apiRequest<{ data: Product[]; count: number }>('/getproductsforgeneration', {
    query: { id },
    ...(fetcher ? { fetch: fetcher, auth: false } : {}),
  });
export const getProductPage = (url: string, title: string, fetcher?: typeof fetch) =>
  apiRequest<{ data: ProductWithGeneration }>('/getproductbygenerationurlandtitle', {
    query: { url, title },
    ...(fetcher ? { fetch: fetcher, auth: false } : {}),
  });
export const createProductCheckout = (input: {
  productId: string;
  variantId: number;
  quantity: number;
}) =>
  apiRequest<CheckoutAnswer>('/payment/create-dream-booth-product-checkout-session', {
    body: input,
  });

export function useProducts(sort: ShopSort, page: number) {
  return useQuery({
    queryKey: ['shop', 'products', sort, page],
    queryFn: () => listProducts(sort, page),
    placeholderData: keepPreviousData,
  });
}

export function useFeaturedProducts() {
  return useQuery({ queryKey: ['shop', 'featured'], queryFn: listFeaturedProducts });
}

export function useGenerations(sort: ShopSort, searchTerm: string, page: number) {
  return useQuery({
    queryKey: ['shop', 'generations', sort, searchTerm, page],
    queryFn: () => listGenerations(sort, searchTerm, page),
    placeholderData: keepPreviousData,
  });
}
