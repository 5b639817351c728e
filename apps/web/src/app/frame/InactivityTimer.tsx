import { IDLE_RECHECK_MS, inactivityLimitSeconds } from '@tandem/contract';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { getToken } from '../../lib/storage';
import { useSession } from '../session';

/**
 * Counts seconds without activity (mouse, keys, scroll, touch reset it); at the server's
 * inactivity_timeout (60 s minimum) the user is signed out with a message saying why. Two seconds
 * after activity stops, the sign-in status is re-checked (a sign-out in another tab ends this one).
 * The seconds are measured from the last activity, not by counting timer ticks: browsers throttle
 * timers in background tabs and suspend them while the computer sleeps.
 */
export function InactivityTimer({ minutes }: { minutes: number }) {
  const { signOut } = useSession();
  const { t } = useTranslation();
  const lastActivity = useRef(Date.now());
  const limit = inactivityLimitSeconds(minutes);

  useEffect(() => {
    let recheck: ReturnType<typeof setTimeout> | undefined;
    const onActivity = () => {
      lastActivity.current = Date.now();
      clearTimeout(recheck);
      recheck = setTimeout(() => {
        if (!getToken()) void signOut(t('frame.sessionEnded'));
      }, IDLE_RECHECK_MS);
    };
    const events = ['mousemove', 'mousedown', 'keydown', 'scroll', 'touchstart'] as const;
    events.forEach((e) => window.addEventListener(e, onActivity, { passive: true }));
    const tick = setInterval(() => {
      if (Date.now() - lastActivity.current >= limit * 1000) {
        clearInterval(tick);
        void signOut(t('frame.inactivitySignedOut', { minutes: Math.round(limit / 60) }));
      }
    }, 1000);
    return () => {
      events.forEach((e) => window.removeEventListener(e, onActivity));
      clearInterval(tick);
      clearTimeout(recheck);
    };
  }, [limit, signOut, t]);
  return null;
}
