/**
 * A source-level failure (file missing, URL answering an error page, truncated XLSX, unreadable CSV): the
 * whole stream cannot be read. The message names the stream and the file or URL; a URL's query string is
 * never shown (it may carry a key).
 */
export class SheetSourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SheetSourceError';
  }
}

export function isUrl(path: string): boolean {
  return /^https?:\/\//i.test(path);
}

/** A URL without its query and fragment, for messages. */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}${parsed.search ? '?…' : ''}`;
  } catch {
    return url.replace(/[?#].*$/, '');
  }
}

export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
