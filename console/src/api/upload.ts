import type { RouteContract } from '@parley/shared';
import { errorOf, sessionHeaders, urlOf, type RequestOf, type ResponseOf } from './api-client.js';

/**
 * Sends a multipart route's form with upload progress (`fetch` cannot report it, so XHR).
 * `onProgress` gets the fraction sent, 0..1.
 */
export function upload<C extends RouteContract>(
  route: C, request: Pick<RequestOf<C>, 'params'>, form: FormData, onProgress: (fraction: number) => void,
): Promise<ResponseOf<C>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(route.method.toUpperCase(), urlOf(route, request));
    for (const [name, value] of Object.entries(sessionHeaders(route.method, false))) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => { if (event.lengthComputable) onProgress(event.loaded / event.total); };
    xhr.onerror = () => reject(new Error('the upload failed: the connection was lost'));
    xhr.onload = () => {
      let body: unknown;
      try { body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined; } catch { body = undefined; }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as ResponseOf<C>);
      else void errorOf({ status: xhr.status, body }).then(reject);
    };
    xhr.send(form);
  });
}
