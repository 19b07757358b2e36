import { Readable } from 'node:stream';

/** A file answer (e-mail attachment, billing Excel export). The caller must consume `stream`. */
export interface BinaryFile {
  stream: Readable;
  /** Original name from `Content-Disposition`, null when the service gave none. */
  fileName: string | null;
  contentType: string | null;
}

/**
 * File name from a Content-Disposition header. RFC 6266: `filename*` (RFC 5987,
 * percent-encoded with a charset) wins over `filename`, which may be quoted.
 */
export function fileNameFromContentDisposition(header: unknown): string | null {
  if (typeof header !== 'string') return null;
  const extended = /filename\*\s*=\s*([^;]+)/i.exec(header);
  if (extended) {
    const decoded = decodeExtendedValue(extended[1].trim());
    if (decoded) return decoded;
  }
  const plain = /filename\s*=\s*("((?:\\.|[^"\\])*)"|[^;]+)/i.exec(header);
  if (!plain) return null;
  const value = plain[2] !== undefined ? plain[2].replace(/\\(.)/g, '$1') : plain[1].trim();
  return value || null;
}

function decodeExtendedValue(raw: string): string | null {
  const m = /^([\w!#$%&+^`{}~-]*)'[^']*'(.*)$/.exec(raw.replace(/^"|"$/g, ''));
  if (!m) return null;
  const charset = m[1].toLowerCase();
  try {
    if (charset === 'utf-8' || charset === '') return decodeURIComponent(m[2]);
    // ISO-8859-1: each %XX is one byte, one character.
    return m[2].replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  } catch {
    return null;
  }
}
