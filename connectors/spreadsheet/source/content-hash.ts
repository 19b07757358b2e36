import { createHash } from 'crypto';
import { createReadStream } from 'fs';

/**
 * sha256 of the file's bytes, streamed, prefixed with a digest of the stream's settings: a byte-identical file
 * read with the same mapping is recognised without parsing, and a mapping change forces a real read.
 */
export async function contentHash(file: string, settingsDigest: string): Promise<string> {
  const hash = createHash('sha256');
  hash.update(settingsDigest);
  hash.update('\0');
  for await (const chunk of createReadStream(file, { highWaterMark: 256 * 1024 })) {
    hash.update(chunk as Buffer);
  }
  return hash.digest('hex');
}
