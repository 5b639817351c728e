import { useEffect, useState } from 'react';
import { formatClock } from './clock';

/** Header clock in the configured time zone, refreshed every second. */
export function Clock({ offset }: { offset: string }) {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <span className="clock" data-testid="clock">
      {formatClock(now, offset)}
    </span>
  );
}
