import { PRODUCT_NAME } from '@chapterwise/shared';
import type { MetaDescriptor } from 'react-router';

export interface SeoInput {
  title: string;
  description: string;
  /** Path of the canonical URL, e.g. "/books". */
  path?: string;
  publicUrl?: string;
  image?: string;
  type?: 'website' | 'article' | 'book' | 'profile';
  noindex?: boolean;
}

/** Title, description, canonical link and Open Graph tags for a page's `meta` export. */
export function seo(input: SeoInput): MetaDescriptor[] {
  const title = input.title.includes(PRODUCT_NAME)
    ? input.title
    : `${input.title} | ${PRODUCT_NAME}`;
  const tags: MetaDescriptor[] = [
    { title },
    { name: 'description', content: input.description },
    { property: 'og:title', content: title },
    { property: 'og:description', content: input.description },
    { property: 'og:type', content: input.type ?? 'website' },
    { property: 'og:site_name', content: PRODUCT_NAME },
    { name: 'twitter:card', content: input.image ? 'summary_large_image' : 'summary' },
  ];
  if (input.path !== undefined && input.publicUrl) {
    const url = `${input.publicUrl}${input.path}`;
    tags.push({ tagName: 'link', rel: 'canonical', href: url });
    tags.push({ property: 'og:url', content: url });
  }
  if (input.image) {
    const image = input.image.startsWith('http')
      ? input.image
      : `${input.publicUrl ?? ''}${input.image}`;
    tags.push({ property: 'og:image', content: image });
  }
  if (input.noindex) tags.push({ name: 'robots', content: 'noindex' });
  return tags;
}
