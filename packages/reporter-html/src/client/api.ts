/** The dashboard server's token, read once from the page's own address. */
const token = new URLSearchParams(location.search).get('token') ?? '';

/** A same-origin URL carrying the token, for fetch, EventSource and links. */
export function withToken(path: string): string {
  if (!token) return path;
  return `${path}${path.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`;
}

export function served(): boolean {
  return token !== '';
}
