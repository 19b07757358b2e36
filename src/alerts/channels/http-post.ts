import axios, { AxiosError } from 'axios';
import { isRetryableStatus } from '../../http/retry-policy';
import { DeliveryError } from './channel';

/** POSTs JSON; a 2xx is delivered. The URL is never part of the error (it may carry a token). */
export async function postJson(url: string, body: unknown, timeoutMs: number): Promise<unknown> {
  try {
    const answer = await axios.post(url, body, { timeout: timeoutMs, headers: { 'Content-Type': 'application/json' }, maxRedirects: 0 });
    return answer.data;
  } catch (error) {
    const e = error as AxiosError;
    if (e.response) {
      const detail = describeBody(e.response.data);
      throw new DeliveryError(`HTTP ${e.response.status}${detail ? `: ${detail}` : ''}`, isRetryableStatus(e.response.status));
    }
    throw new DeliveryError(e.code ? `${e.code}: ${networkReason(e)}` : networkReason(e), true);
  }
}

function networkReason(e: AxiosError): string {
  return e.code === 'ECONNABORTED' ? 'timed out' : (e.message || 'network error').replace(/https?:\/\/\S+/g, '<url>');
}

function describeBody(data: unknown): string {
  if (data === undefined || data === null || data === '') return '';
  const text = typeof data === 'string' ? data : JSON.stringify(data);
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}
