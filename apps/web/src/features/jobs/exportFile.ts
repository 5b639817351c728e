import { api } from '@tandem/contract';
import { urlOf } from '../../api/client';
import { i18next } from '../../i18n';
import { getToken } from '../../lib/storage';

/**
 * Saves a finished background export (GET /export/:id/download, its owner only). Returns the
 * server's message when it refuses.
 */
export async function downloadExport(id: number): Promise<string | null> {
  const res = await fetch(urlOf(api.jobs.downloadExport, { params: { id } }), {
    headers: { 'X-Auth-Token': getToken() ?? '', 'X-Lang': i18next.language },
  });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
    return body?.error?.message ?? res.statusText;
  }
  const name =
    /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? `export-${id}.csv`;
  const a = document.createElement('a');
  a.href = URL.createObjectURL(await res.blob());
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  return null;
}
