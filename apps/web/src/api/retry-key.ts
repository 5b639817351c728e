import { useCallback, useRef } from 'react';

function newKey(): string {
  const b = crypto.getRandomValues(new Uint8Array(12));
  return 'web-' + Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

/**
 * The idempotency key of a form that moves money (a payment, a credit or debit note): the same key
 * for every submit of one entry — a double click, a resend after a timeout whose first request did
 * reach the server — so the server records it once; `renew()` after the server accepted it, so the
 * next entry is a new one. (A key made per submit would let a retried request record twice.)
 */
export function useRetryKey(): { key: () => string; renew: () => void } {
  const ref = useRef<string | null>(null);
  const key = useCallback(() => (ref.current ??= newKey()), []);
  const renew = useCallback(() => {
    ref.current = null;
  }, []);
  return { key, renew };
}
