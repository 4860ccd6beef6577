/**
 * The post of a list whose picture is likely the page's largest paint: the first card's, or the
 * second's when the first has none (on a phone the second card's picture is still in the first
 * screen, and it was the home page's largest paint in Lighthouse's runs). Its picture is loaded
 * eagerly with high priority (the web app's post-feed.tsx, and the server-rendered home page:
 * backend/src/pages), and preloaded as soon as the list's reply names it (route-prefetch.ts, and
 * the boot script, which embeds this very function: it is self-contained on purpose, no imports,
 * no outside names).
 */
export function listPicturePost<T extends { photo?: string | null }>(posts: readonly T[] | null | undefined): T | null {
  const candidates = 2;
  for (let index = 0; posts && index < Math.min(candidates, posts.length); index += 1) {
    if (posts[index].photo) return posts[index];
  }
  return null;
}
