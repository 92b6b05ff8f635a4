/**
 * Where to go after logging in: the `redirectTo` the guard put in the address when it is a
 * path on this site, else the dashboard. "//evil.example" and "/\\evil" are other sites.
 */
export function safeRedirect(to: string | null | undefined, fallback = '/dashboard'): string {
  if (!to || !to.startsWith('/') || to.startsWith('//') || to.startsWith('/\\')) return fallback;
  // Control characters (a newline, a tab) have no place in a path and confuse URL parsers.
  if ([...to].some((c) => c.charCodeAt(0) < 32)) return fallback;
  if (to === '/login' || to.startsWith('/login?')) return fallback;
  return to;
}
