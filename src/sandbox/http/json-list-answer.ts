import { once } from 'node:events';
import type { Response } from 'express';

/**
 * A list answer written as it is produced: `{"<list>":[item,item,...],"total":n,"status":"success"}`, each chunk of
 * items serialised and written on its own (waiting for the socket to drain), so a request at the list's cap never
 * holds the whole answer, neither as objects nor as one JSON string. The fields after the list are read when the
 * list is done (a scan learns `total` on the way). An error before the first byte goes to the exception filter as
 * usual; after it, the connection is cut (the client sees a broken answer, never a truncated "success").
 */
export async function writeJsonList(
  response: Response,
  list: string,
  chunks: AsyncIterable<unknown[]>,
  fieldsAfter: () => Record<string, unknown>,
): Promise<void> {
  let started = false;
  const write = async (text: string) => {
    if (!started) {
      response.status(200).setHeader('Content-Type', 'application/json; charset=utf-8');
      started = true;
    }
    if (!response.write(text)) await once(response, 'drain');
  };
  try {
    let first = true;
    for await (const chunk of chunks) {
      if (response.destroyed) return;
      if (chunk.length === 0) continue;
      const items = chunk.map((item) => JSON.stringify(item)).join(',');
      await write(first ? `{${JSON.stringify(list)}:[${items}` : `,${items}`);
      first = false;
    }
    if (first) await write(`{${JSON.stringify(list)}:[`);
    const after = Object.entries(fieldsAfter()).map(([key, value]) => `,${JSON.stringify(key)}:${JSON.stringify(value)}`).join('');
    await write(`]${after}}`);
    response.end();
  } catch (error) {
    if (!started) throw error;
    response.destroy(error instanceof Error ? error : new Error(String(error)));
  }
}
