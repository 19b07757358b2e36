import iconv from 'iconv-lite';

/** What the readers use of a decoder (iconv-lite's, or string_decoder's for UTF-8). */
export interface TextDecoderLike {
  write(chunk: Buffer): string;
  end(): string | undefined;
}

/**
 * A Windows-1251 decoder of the file's bytes. `atStart`: the file's first bytes come next, and a UTF-8 byte-order
 * mark among them is dropped: Windows-1251 text saved behind one (read so with `encoding: windows-1251`) would
 * otherwise start its header with `п»ї`.
 */
export function win1251Decoder(atStart: boolean): TextDecoderLike {
  const decoder = iconv.getDecoder('win1251');
  let first = atStart;
  return {
    write(chunk: Buffer): string {
      if (first && chunk.length > 0) {
        first = false;
        if (chunk.length >= 3 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) return decoder.write(chunk.subarray(3));
      }
      return decoder.write(chunk);
    },
    end: () => decoder.end(),
  };
}
