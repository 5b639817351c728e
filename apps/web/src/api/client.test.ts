import { api } from '@tandem/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, call, configureApi } from './client';

/** The shared API client's error handling (spec 01 section 8): where a failed page load is shown. */
describe('a failed page load', () => {
  let path = '/agents/client/edit/9';
  const navigate = vi.fn<(p: string) => void>();
  const toastError = vi.fn<(m: string) => void>();
  let answer: (() => void) | null = null;

  beforeEach(() => {
    path = '/agents/client/edit/9';
    navigate.mockReset();
    toastError.mockReset();
    configureApi({ navigate, toastError, currentPath: () => path });
    const storage = () => {
      const m = new Map<string, string>();
      return {
        getItem: (k: string) => m.get(k) ?? null,
        setItem: (k: string, v: string) => void m.set(k, v),
        removeItem: (k: string) => void m.delete(k),
      };
    };
    vi.stubGlobal('sessionStorage', storage());
    vi.stubGlobal('localStorage', storage());
    answer = null;
    // The server answers "not found" when the test says so.
    vi.stubGlobal(
      'fetch',
      () =>
        new Promise<Response>((resolve) => {
          answer = () =>
            resolve(
              new Response(
                JSON.stringify({ success: false, error: { code: 30, message: 'No record found' } }),
                {
                  status: 404,
                },
              ),
            );
        }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it('sends the user to the error page when they are still on the page that asked', async () => {
    const p = call(api.agents.portalClient, { params: { id: 9 } });
    await vi.waitFor(() => expect(answer).not.toBeNull());
    answer!();
    await expect(p).rejects.toBeInstanceOf(ApiError);
    expect(toastError).toHaveBeenCalledWith('No record found', undefined);
    expect(navigate).toHaveBeenCalledWith('/error/form');
  });

  it('leaves alone the page the user went to before the answer came', async () => {
    const p = call(api.agents.portalClient, { params: { id: 9 } });
    await vi.waitFor(() => expect(answer).not.toBeNull());
    path = '/agents/statistics/commission_history';
    answer!();
    await expect(p).rejects.toBeInstanceOf(ApiError);
    expect(toastError).not.toHaveBeenCalled();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('still shows a failed action (a form save) after the user moved on', async () => {
    const p = call(
      api.agents.portalUpdateClient,
      { params: { id: 9 }, body: { company: 'x' } as never },
      {
        errorMode: 'inline',
      },
    );
    await vi.waitFor(() => expect(answer).not.toBeNull());
    path = '/agents/client/client_list';
    answer!();
    await expect(p).rejects.toBeInstanceOf(ApiError);
    expect(toastError).toHaveBeenCalledWith('No record found', undefined);
    expect(navigate).not.toHaveBeenCalled();
  });
});
