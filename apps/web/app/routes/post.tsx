import { data, Link } from 'react-router';
import { notFoundBoundary } from '../components/layout/not-found';
import { getPredictionPage } from '../features/images';
import { ApiClientError } from '../lib/api';
import { seo } from '../lib/seo';
import imagesCss from '../styles/images.css?url';
import type { Route } from './+types/post';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: imagesCss }];

/** Server-rendered: the post is in the first HTML, with its Open Graph image (link previews). */
export async function loader({ params, context }: Route.LoaderArgs) {
  try {
    const answer = await getPredictionPage(params.username, params.predictionUrl, context.apiFetch);
    return { page: answer.data, publicUrl: context.publicConfig.publicUrl };
  } catch (error) {
    if (error instanceof ApiClientError && (error.status === 404 || error.status === 400)) {
      throw data('Not Found', { status: 404 });
    }
    throw error;
  }
}

export function meta({ data: loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: 'Post not found | Chapterwise' }];
  const { page, publicUrl } = loaderData;
  return seo({
    title: `${page.post.name} by @${page.post.creatorUsername}`,
    description: page.post.description || page.prompt,
    path: `/${page.post.creatorUsername}/${page.post.predictionUrl}`,
    publicUrl,
    type: 'article',
    image: page.post.image,
  });
}

/** /{creatorUsername}/{predictionUrl}: a user's post (spec §2). */
export default function PostRoute({ loaderData }: Route.ComponentProps) {
  const { post, prompt, modelName } = loaderData.page;
  return (
    <article className="container page post-page">
      <p className="eyebrow">
        <Link to={`/profile/${post.creatorUsername}`}>@{post.creatorUsername}</Link>
      </p>
      <h1>{post.name}</h1>
      <figure>
        <img src={post.image} alt={post.name} width={post.width} height={post.height} />
        <figcaption className="muted">
          {post.width}×{post.height} · made with {modelName} ·{' '}
          <time dateTime={post.createdOnDate}>
            {new Date(post.createdOnDate).toLocaleDateString('en-US', {
              month: 'short',
              day: 'numeric',
              year: 'numeric',
            })}
          </time>
        </figcaption>
      </figure>
      {post.description ? <p>{post.description}</p> : null}
      <p className="muted">Prompt: {prompt}</p>
    </article>
  );
}

/** A missing post is a 404 page saying so (the loader throws it). */
export const ErrorBoundary = notFoundBoundary({
  thing: 'post',
  explanation: 'It may have been deleted, or it was never shared.',
  actions: [{ to: '/', label: 'Go home' }],
});
